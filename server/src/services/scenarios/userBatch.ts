import { getAddress, keccak256, toUtf8Bytes, type Provider, type Signer } from "ethers";
import { BatchPayments__factory, USDX__factory } from "@bindings";
import { exactTokenAmount, formatTokenAmount, parsePositiveTokenAmount, parseTokenAmount } from "@common/amounts";
import { chunkGasLimit } from "@common/gasLimits";
import type { ChunkDetail, ChunkPlan, JobSummary, RecipientDetail } from "@common/apiTypes";
import { plural } from "@common/wording";
import { type ApiClient, UserPartRefused } from "./userApi";
import type { ScenarioBatch } from "./userSchema";

/**
 * The scenario user's batch job, left half paid: started through POST /api/batch/execute as the
 * Payments page starts one, its first `paidChunks` chunks paid on chain from the payer (approve,
 * then BatchPayments.pay with the chunk's plan, as the dashboard sends them), each reported, and
 * confirmed by the server's watcher before the step ends. A second apply finds the job by its
 * recipients' names and pays only what is not paid yet.
 */

/** How long a paid chunk may take to show as confirmed: the server's indexer and watcher poll every second or so. */
export const CONFIRM_WAIT_MS = 60_000;
const CONFIRM_POLL_MS = 250;

/** One thing the user part does, planned with what it reads first. */
export interface UserAction {
  label: string;
  /** The transactions it sends from the payer: none for a request to the API. */
  transactions: number;
  /** Resolves with the transactions it sent, when that differs from `transactions` (an allowance already given). */
  run(): Promise<void | number>;
}

/** What the batch's steps share as they run: the session's token (a new user has one only once made), and the job once started. */
export interface BatchContext {
  token(): string;
  job: { id: string; chunks: ChunkPlan[] } | null;
}

export interface BatchPayer {
  name: string;
  address: string;
  signer(): Promise<Signer>;
}

/** The job's recipients: addresses derived from the user and the job's name (the same on every apply), named '<job> 1', '<job> 2', ... */
export function batchRecipients(email: string, batch: ScenarioBatch): { name: string; address: string; amount: string }[] {
  const amount = exactTokenAmount(parsePositiveTokenAmount(batch.amountEach));
  return Array.from({ length: batch.recipients }, (_, i) => ({
    name: `${batch.name} ${i + 1}`,
    address: getAddress(keccak256(toUtf8Bytes(`usdx-scenario-recipient:${email.toLowerCase()}:${batch.name}:${i + 1}`)).slice(0, 42)),
    amount,
  }));
}

/** The user's job with these recipients, or null: among their jobs of the same size and total, the one whose first recipient has the name. */
async function findJob(client: ApiClient, token: string, batch: ScenarioBatch, total: bigint): Promise<string | null> {
  let before: string | null = null;
  do {
    const page: { jobs: JobSummary[]; nextBefore: string | null } = await client.call(
      "list the user's batch jobs",
      "GET",
      `/api/batch?limit=100${before ? `&before=${encodeURIComponent(before)}` : ""}`,
      token,
    );
    for (const job of page.jobs) {
      if (job.recipients !== batch.recipients || BigInt(job.totalAmountRaw) !== total) continue;
      const first: { recipients: RecipientDetail[] } = await client.call(
        "read a batch job",
        "GET",
        `/api/batch/${job.jobId}?limit=1`,
        token,
      );
      if (first.recipients[0]?.name === `${batch.name} 1`) return job.jobId;
    }
    before = page.nextBefore;
  } while (before);
  return null;
}

/** A stored job's chunks as the plan execute answered: each chunk's recipients and amounts in job order. */
function chunkPlans(chunks: ChunkDetail[], recipients: RecipientDetail[]): ChunkPlan[] {
  return chunks.map((chunk) => {
    const rows = recipients.filter((r) => r.chunkIndex === chunk.index).sort((a, b) => a.position - b.position);
    const amounts = rows.map((r) => parseTokenAmount(r.amount));
    return {
      index: chunk.index,
      recipients: rows.map((r) => r.address),
      amounts: amounts.map(String),
      total: String(amounts.reduce((a, b) => a + b, 0n)),
      reference: chunk.reference,
    };
  });
}

/** What the batch's steps need of its payer on chain; null when they need nothing (the job is there and its paid chunks confirmed). */
export interface PayerNeeds {
  /** Each transfer the payments make, in order: the engine mints the shares they take to the payer first. */
  amounts: bigint[];
}

/**
 * The steps that leave the job started with its first `paidChunks` chunks confirmed (none when it
 * is so already), and what they need of the payer: the token unpaused and the payer unblocked to
 * start the job (the server refuses it otherwise) and to pay, and each payment's amount. `token`
 * is null for a user not made yet (then nothing of theirs exists).
 */
export async function planBatch(
  client: ApiClient,
  provider: Provider,
  email: string,
  batch: ScenarioBatch,
  payer: BatchPayer,
  token: string | null,
  context: BatchContext,
): Promise<{ actions: UserAction[]; payer: PayerNeeds | null }> {
  const recipients = batchRecipients(email, batch);
  const each = parsePositiveTokenAmount(batch.amountEach);
  const chunkSize = client.config.batch.chunkSize;
  const chunkCount = Math.ceil(batch.recipients / chunkSize);
  if (batch.paidChunks > chunkCount)
    throw new UserPartRefused(
      `The batch '${batch.name}' has ${plural(chunkCount, "chunk")} (${plural(batch.recipients, "recipient")}, up to ${chunkSize} a chunk on this server): paidChunks must be at most ${chunkCount}.`,
    );
  const jobId = token ? await findJob(client, token, batch, each * BigInt(batch.recipients)) : null;
  const actions: UserAction[] = [];
  const amounts: bigint[] = [];
  let chunks: ChunkDetail[] = [];
  if (!jobId) {
    actions.push({
      label: `start the batch job '${batch.name}': ${plural(batch.recipients, "recipient")} of ${batch.amountEach} USDX, paid from ${payer.name}`,
      transactions: 0,
      run: async () => {
        const started: { jobId: string; chunks: ChunkPlan[]; payerIsSafe: boolean } = await client.call(
          `start the batch job '${batch.name}'`,
          "POST",
          "/api/batch/execute",
          context.token(),
          { recipients, payer: payer.address },
        );
        if (started.payerIsSafe)
          throw new UserPartRefused(`The batch's payer ${payer.name} is a Safe: name an account that pays by itself.`);
        context.job = { id: started.jobId, chunks: started.chunks };
      },
    });
  } else {
    const detail: { chunks: ChunkDetail[]; recipients: RecipientDetail[] } = await client.call(
      "read the batch job",
      "GET",
      `/api/batch/${jobId}?limit=10000`,
      token!,
    );
    chunks = detail.chunks;
    context.job = { id: jobId, chunks: chunkPlans(detail.chunks, detail.recipients) };
  }
  for (let index = 0; index < batch.paidChunks; index++) {
    const chunk = chunks.find((c) => c.index === index);
    const of = `chunk ${index + 1} of ${chunkCount} of '${batch.name}'`;
    if (chunk?.status === "confirmed") continue;
    // Paid and reported already, the watcher not there yet: wait for it rather than pay twice.
    const receipt = chunk?.status === "submitted" && chunk.txHash ? await provider.getTransactionReceipt(chunk.txHash) : null;
    if (receipt?.status === 1) {
      actions.push({ label: `wait for the server to confirm ${of}`, transactions: 0, run: () => untilConfirmed(client, context, index) });
      continue;
    }
    actions.push({
      label: `pay ${of} from ${payer.name}`,
      transactions: 2,
      run: () => payChunk(client, context, payer, index, chunk?.status ?? "pending"),
    });
    // The server's chunks, or as it will cut them: chunkSize recipients each, the last what is left.
    const planned = context.job?.chunks.find((c) => c.index === index);
    if (planned) amounts.push(...planned.amounts.map(BigInt));
    else amounts.push(...Array<bigint>(Math.min(chunkSize, batch.recipients - index * chunkSize)).fill(each));
  }
  // Waiting for the watcher needs nothing of the payer; starting the job or paying does.
  const needsPayer = !jobId || amounts.length > 0;
  return { actions, payer: needsPayer ? { amounts } : null };
}

/** Approves what the chunk needs (if the allowance is short), pays it as planned, reports it, and waits for the server to confirm it; resolves with the transactions sent. */
async function payChunk(client: ApiClient, context: BatchContext, payer: BatchPayer, index: number, status: string): Promise<number> {
  const job = context.job!;
  const plan = job.chunks.find((c) => c.index === index);
  if (!plan) throw new UserPartRefused(`The batch job ${job.id} has no chunk ${index + 1}.`);
  const { proxy, batchPayments } = client.config.contracts;
  const signer = await payer.signer();
  const usdx = USDX__factory.connect(proxy, signer);
  const total = BigInt(plan.total);
  const sent = async (what: string, send: () => Promise<{ wait(): Promise<{ status: number | null; hash: string } | null> }>) => {
    try {
      const receipt = await (await send()).wait();
      if (receipt?.status !== 1) throw new Error("it reverted");
      return receipt.hash;
    } catch (error) {
      throw new UserPartRefused(
        `${payer.name} could not ${what} (${formatTokenAmount(total)} USDX for chunk ${index + 1}): ${(error as { shortMessage?: string }).shortMessage ?? (error as Error).message}`,
      );
    }
  };
  const approve = (await usdx.allowance(payer.address, batchPayments)) < total;
  if (approve) await sent("approve the batch payment contract", () => usdx.approve(batchPayments, total));
  const txHash = await sent("pay the chunk", () =>
    // The gas given, as the dashboard gives it: Hardhat's estimate refuses a chunk of a few hundred (gasLimits.ts).
    BatchPayments__factory.connect(batchPayments, signer).pay(plan.recipients, plan.amounts, plan.reference, {
      gasLimit: chunkGasLimit(plan.recipients.length),
    }),
  );
  // A closed chunk takes no report: the watcher confirms its payment from the index alone.
  if (status !== "closed")
    await client.call(`report chunk ${index + 1}'s transaction`, "POST", `/api/batch/${job.id}/transactions`, context.token(), {
      chunkIndex: index,
      txHash,
    });
  await untilConfirmed(client, context, index);
  return approve ? 2 : 1;
}

async function untilConfirmed(client: ApiClient, context: BatchContext, index: number): Promise<void> {
  const job = context.job!;
  const deadline = Date.now() + CONFIRM_WAIT_MS;
  for (;;) {
    const detail: { chunks: ChunkDetail[] } = await client.call(
      "follow the batch job",
      "GET",
      `/api/batch/${job.id}?limit=1`,
      context.token(),
    );
    const chunk = detail.chunks.find((c) => c.index === index);
    if (chunk?.status === "confirmed") return;
    if (Date.now() > deadline)
      throw new UserPartRefused(
        `The server did not confirm chunk ${index + 1} of the batch job within ${CONFIRM_WAIT_MS / 1000} s of its payment (it is ${chunk?.status ?? "missing"}${chunk?.error ? `: ${chunk.error}` : ""}): are its indexer and batch watcher running?`,
      );
    await new Promise((resolve) => setTimeout(resolve, CONFIRM_POLL_MS));
  }
}
