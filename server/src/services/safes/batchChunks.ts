import { and, asc, eq, inArray } from "drizzle-orm";
import { Interface } from "ethers";
import { RPC_TIMEOUT_MS, type Chain } from "../../chain/client";
import type { Database } from "../../db/client";
import { xactLock } from "../../db/locks";
import { batchChunks, batchJobs, batchRecipients, safeProposals } from "../../db/schema";
import { within } from "../../lib/concurrency";
import { badRequest, conflict, unavailable } from "../../lib/errors";
import { fromChain } from "../indexing/tokenState";
import { safeWords } from "./checks";
import type { SafeState } from "./reader";
import { exactTokenAmount } from "@common/amounts";
import { describeError, isCallException } from "@common/contractErrors";
import type { SafeTx } from "@common/safe";
import { describeChunk, type ChunkPayment } from "@common/safeBatch";
import { shortHash } from "@common/wording";

/**
 * A Safe proposal that pays a batch chunk (docs/architecture/safes.md, 'A Safe pays a batch'):
 * checks.ts has read the SafeTx as exactly MultiSendCallOnly's approve and pay; here it is matched
 * to the chunk its reference names, of a job this Safe pays, planned with exactly these recipients
 * and amounts, not paid, closed or already proposed; then run as the Safe would run it.
 */

/** The chunk a proposal pays. */
export interface ChunkTarget {
  jobId: string;
  index: number;
  of: number;
}

/** 'chunk 1 of 2 of batch 5b0e8c5e': the job's id is a UUID; its first part is what a person matches. */
export const chunkWords = (t: ChunkTarget) => `chunk ${t.index + 1} of ${t.of} of batch ${t.jobId.slice(0, 8)}`;

/** The chunk `chunk` pays, checked against the job's plan; a 400 or 409 with a sentence otherwise. */
export async function findChunk(db: Database, safe: SafeState, chunk: ChunkPayment): Promise<ChunkTarget> {
  const [row] = await db
    .select({ chunk: batchChunks, payer: batchJobs.payer, payerIsSafe: batchJobs.payerIsSafe, of: batchJobs.chunkCount })
    .from(batchChunks)
    .innerJoin(batchJobs, eq(batchJobs.id, batchChunks.jobId))
    .where(eq(batchChunks.reference, chunk.reference));
  if (!row)
    throw badRequest(
      `The pay's reference ${shortHash(chunk.reference)} is no batch chunk's: start the batch on the Payments screen with the Safe as payer, and propose the chunks it plans.`,
    );
  const target = { jobId: row.chunk.jobId, index: row.chunk.index, of: row.of };
  if (!row.payerIsSafe || row.payer?.toLowerCase() !== safe.address.toLowerCase())
    throw badRequest(
      `Batch ${target.jobId.slice(0, 8)} is paid from ${row.payer ?? "the wallet that pays its first chunk"}, not from ${safeWords(safe)}: only its payer's proposals pay it.`,
    );
  if (row.chunk.status === "confirmed")
    throw conflict(`${capital(chunkWords(target))} is already paid, by transaction ${row.chunk.txHash}: it is not paid again.`);
  if (row.chunk.status === "closed")
    throw conflict(
      `${capital(chunkWords(target))} is closed: the batch failed and its time to send is over. Start a new batch for the recipients not paid.`,
    );
  const planned = await db
    .select({ address: batchRecipients.address, amount: batchRecipients.amount })
    .from(batchRecipients)
    .where(and(eq(batchRecipients.jobId, target.jobId), eq(batchRecipients.chunkIndex, target.index)))
    .orderBy(asc(batchRecipients.position));
  const same =
    planned.length === chunk.recipients.length &&
    planned.every((p, i) => p.address.toLowerCase() === chunk.recipients[i].toLowerCase() && p.amount === chunk.amounts[i].toString());
  if (!same)
    throw badRequest(
      `The pay's recipients or amounts differ from ${chunkWords(target)} as planned (${planned.length} recipients, ${exactTokenAmount(BigInt(row.chunk.totalAmount))} USDX): a chunk is paid exactly as the server planned it.`,
    );
  return target;
}

/**
 * Inside the transaction that stores the proposal: one proposal at a time per chunk. Under the
 * chunk's lock (two owners proposing it at once), a chunk with a proposal pending, or executed
 * (its payment may not be indexed yet), takes no other: two executable proposals could pay it twice.
 */
export async function claimChunk(db: Database, target: ChunkTarget): Promise<void> {
  await db.execute(xactLock("batchChunk", `${target.jobId}:${target.index}`));
  const [other] = await db
    .select({ safeTxHash: safeProposals.safeTxHash, nonce: safeProposals.nonce, state: safeProposals.state })
    .from(safeProposals)
    .where(
      and(
        eq(safeProposals.batchJobId, target.jobId),
        eq(safeProposals.batchChunk, target.index),
        inArray(safeProposals.state, ["pending", "executed"]),
      ),
    );
  if (other?.state === "pending")
    throw conflict(
      `${capital(chunkWords(target))} already has a proposal waiting for approvals (${shortHash(other.safeTxHash)}, nonce ${other.nonce}): approve that one, or reject it before proposing the chunk again.`,
    );
  if (other)
    throw conflict(`${capital(chunkWords(target))} was already paid by proposal ${shortHash(other.safeTxHash)}: it is not paid again.`);
}

const HANDLER = new Interface(["function simulate(address targetContract, bytes calldataPayload) returns (bytes response)"]);

/**
 * What the chunk would do, asked before the owners sign: the token not paused, the Safe not blocked
 * and holding the chunk's total (each a sentence), then the whole MultiSend run as the Safe at the
 * block read, through the compatibility fallback handler's `simulate` (Safe's own way to run code as
 * the Safe and revert): a refusal is a 400 in the contract's words. A Safe without that handler
 * answers nothing, and only the checks before hold.
 */
export async function simulateChunk(chain: Chain, safe: SafeState, tx: SafeTx, chunk: ChunkPayment, target: ChunkTarget): Promise<string> {
  const blockTag = safe.blockNumber;
  const { usdx } = chain;
  const [paused, blocked, balance] = await fromChain("the Safe's balance", () =>
    Promise.all([usdx.paused({ blockTag }), usdx.isBlocked(safe.address, { blockTag }), usdx.balanceOf(safe.address, { blockTag })]),
  );
  if (paused) throw badRequest("USDX is paused: no payment can be made until it is unpaused.");
  if (blocked) throw badRequest(`${capital(safeWords(safe))} is blocked: it cannot send USDX.`);
  if (balance < chunk.total)
    throw badRequest(
      `Insufficient balance: ${safeWords(safe)} holds ${exactTokenAmount(balance)} USDX and ${chunkWords(target)} needs ${exactTokenAmount(chunk.total)} USDX.`,
    );
  try {
    await within(
      chain.provider.call({
        from: safe.address,
        to: safe.address,
        data: HANDLER.encodeFunctionData("simulate", [tx.to, tx.data]),
        blockTag,
      }),
      RPC_TIMEOUT_MS,
      "no answer",
    );
  } catch (error) {
    if (isCallException(error)) throw badRequest(`The chunk would fail if executed from ${safeWords(safe)}: ${describeError(error)}`);
    throw unavailable("Cannot simulate the proposal: the chain's RPC node is not answering. Try again shortly.");
  }
  return describeChunk(chunk, chunkWords(target));
}

const capital = (text: string) => text[0].toUpperCase() + text.slice(1);
