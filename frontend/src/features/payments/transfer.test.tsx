import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, screen, within } from "@testing-library/react";
import type { UserEvent } from "@testing-library/user-event";
import type { TxOutcome } from "@/lib/tx/runner";
import { NotSentError } from "@/lib/tx/wallet";
import type { WriteContracts } from "@/lib/chain/contracts";
import type { ParsedRecipients } from "./api/types";
import { chunkGasLimit } from "@common/gasLimits";
import { chunkRequest, PERMIT_LIFETIME_S } from "./hooks/useBatchTransfer";
import { TRANSACTION_GAS_CAP } from "@common/gasLimits";
import PaymentsPage from "./pages/PaymentsPage";
import { FAILED_FALLBACK, TIMEOUT_MESSAGE, TRANSFER_TIMEOUT_MS, beginRun, usePayments } from "./stores/paymentsStore";
import type { Api } from "@common/api";
import type { RequestOf } from "@common/api/endpoint";

/** The JSON body the dashboard sends to a declared endpoint. */
type BodyOf<K extends keyof Api> = RequestOf<Api[K]>["body"];
import {
  HASH_1,
  HASH_2,
  HASH_3,
  JOB_ID,
  ME,
  account,
  batchContract,
  connect,
  csvFile,
  dryRun,
  executeAnswer,
  giveElementsHeight,
  jobDetail,
  lastToast,
  parsed,
  parsedOf,
  permit,
  recipient,
  renderPage,
  resetAll,
  run,
  runCall,
  runnerPays,
  signBatchPermit,
  stubApi,
  toasts,
  usdx,
} from "./testUtils";

vi.mock("@/lib/chain/queries", async () => (await import("./testUtils")).queriesMock);
vi.mock("@/lib/tx/runner", async () => (await import("./testUtils")).runnerMock);
vi.mock("@/lib/chain/contracts", async () => (await import("./testUtils")).contractsMock);
vi.mock("@/lib/tx/dryRun", async () => (await import("./testUtils")).dryRunMock);

beforeEach(() => {
  resetAll();
  giveElementsHeight();
});

afterEach(() => {
  vi.useRealTimers();
});

const detailUrl = `/api/batch/${JOB_ID}?`;

// Taken before any clock is faked: some of TanStack Query's notifications ride on real timers.
const realSetTimeout = globalThis.setTimeout;

/** Fake clocks only: fetch's own plumbing (setImmediate, nextTick) keeps running for real. */
const fakeClock = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });

/** Moves the clock on by `ms`, then lets the answers it set off arrive. */
async function tick(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
    // Answers and the re-renders they cause settle over a few turns of both clocks (5 ms in all).
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => realSetTimeout(resolve, 2));
      await vi.advanceTimersByTimeAsync(1);
    }
  });
}

/** The server of a job of `sizes` chunks: parse, execute, reports, and a status that completes once every chunk is reported. */
function batchServer(data: ParsedRecipients, sizes: number[], over: Record<string, unknown> = {}) {
  const reported = new Map<number, string>();
  const api = stubApi({
    "POST /api/batch/parse-csv": { success: true, error: null, data },
    "POST /api/batch/execute": () => new Response(JSON.stringify(executeAnswer(sizes)), { status: 201 }),
    [`POST /api/batch/${JOB_ID}/transactions`]: (body: { chunkIndex: number; txHash: string }) => {
      reported.set(body.chunkIndex, body.txHash);
      return { success: true };
    },
    [`GET ${detailUrl}`]: () => {
      const done = reported.size === sizes.length;
      return jobDetail(
        {
          status: done ? "completed" : "processing",
          txHash: [...reported.values()].at(-1) ?? null,
          recipients: data.validRecipients.length,
        },
        sizes.map((size, i) => ({ recipients: size, status: reported.has(i) ? "confirmed" : "pending", txHash: reported.get(i) ?? null })),
      );
    },
    "GET /api/batch?": { success: true, jobs: [], nextBefore: null },
    "POST /api/contacts/import": { success: true, imported: 2, skipped: [] },
    ...over,
  });
  return { api, reported };
}

async function loadRecipients(user: UserEvent) {
  await user.upload(screen.getByLabelText("Upload CSV file"), csvFile("Name,Address,Amount\n"));
  return screen.findByRole("button", { name: /^Pay / });
}

describe("Payments: starting a batch (PRODUCT.md section 5)", () => {
  it("says 'Cannot process payments' without a wallet", async () => {
    const { api } = batchServer(parsedOf(2), [2]);
    const { user } = renderPage(<PaymentsPage />);
    await user.click(await loadRecipients(user));
    expect(lastToast()).toMatchObject({
      title: "Cannot process payments",
      description: "Please connect your wallet and upload a valid CSV file",
      variant: "destructive",
    });
    expect(api.of("POST", "/api/batch/execute")).toHaveLength(0);
  });

  it("says 'No valid recipients found' when every row has an error", async () => {
    const { api } = batchServer(parsed({ validRecipients: [], totalAmount: "0", totalAmountRaw: "0", totalRows: 1 }), [1]);
    connect();
    const { user } = renderPage(<PaymentsPage />);
    await user.click(await loadRecipients(user));
    expect(lastToast()).toMatchObject({ title: "No valid recipients found", variant: "destructive" });
    expect(api.of("POST", "/api/batch/execute")).toHaveLength(0);
  });

  it("pays different amounts per row: no same-amount rule", async () => {
    const data = parsed({ invalidEntries: [], totalRows: 2 }); // 5 and 2.5
    const { api } = batchServer(data, [2]);
    runnerPays([HASH_1]);
    connect();
    const { user } = renderPage(<PaymentsPage />);
    await user.click(await loadRecipients(user));
    await screen.findByText("Batch transfer completed", { selector: "h2" });
    expect(
      (api.of<BodyOf<"POST /api/batch/execute">>("POST", "/api/batch/execute")[0].body.recipients as { amount: string }[]).map(
        (r) => r.amount,
      ),
    ).toEqual(["5", "2.5"]);
  });

  it("says 'Insufficient balance' when the total is above the wallet's balance, and starts nothing", async () => {
    account.balance = usdx(4.25);
    const { api } = batchServer(parsedOf(5), [5]);
    connect();
    const { user } = renderPage(<PaymentsPage />);
    await user.click(await loadRecipients(user));
    await vi.waitFor(() =>
      expect(lastToast()).toMatchObject({ title: "Insufficient balance", description: "You only have 4.25 USDX available" }),
    );
    expect(api.of("POST", "/api/batch/execute")).toHaveLength(0);
    expect(run).not.toHaveBeenCalled();
  });

  it("shows the server's message as 'Transfer failed' when it refuses the batch, and stays on the recipients", async () => {
    const { api } = batchServer(parsedOf(2), [2], {
      "POST /api/batch/execute": () =>
        new Response(JSON.stringify({ success: false, error: "USDX is paused: no payment can be made until it is unpaused." }), {
          status: 400,
        }),
    });
    connect();
    const { user } = renderPage(<PaymentsPage />);
    await user.click(await loadRecipients(user));
    await vi.waitFor(() =>
      expect(lastToast()).toMatchObject({
        title: "Transfer failed",
        description: "USDX is paused: no payment can be made until it is unpaused.",
      }),
    );
    expect(api.of("POST", "/api/batch/execute")).toHaveLength(1);
    expect(signBatchPermit).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Pay 2 recipients" })).toBeEnabled();
  });

  it("treats an answer other than 'processing' as a failure with the server's message", async () => {
    batchServer(parsedOf(2), [2], { "POST /api/batch/execute": { success: true, status: "queued", message: "Not now" } });
    connect();
    const { user } = renderPage(<PaymentsPage />);
    await user.click(await loadRecipients(user));
    await vi.waitFor(() => expect(lastToast()).toMatchObject({ title: "Transfer failed", description: "Not now" }));
    expect(usePayments.getState().phase).toBe("initial");
  });
});

describe("Payments: execute, one permit, one transaction per chunk", () => {
  it("signs one permit for the job's total, sends each chunk through the runner and reports each hash", async () => {
    const { api } = batchServer(parsedOf(5), [2, 2, 1]);
    runnerPays([HASH_1, HASH_2, HASH_3]);
    connect();
    const { user } = renderPage(<PaymentsPage />);
    await user.click(await loadRecipients(user));

    await screen.findByText("Batch transfer completed", { selector: "h2" });
    // The execute call: every valid row with its own amount, and the paying wallet.
    expect(api.of("POST", "/api/batch/execute")[0].body).toEqual({
      recipients: [1, 2, 3, 4, 5].map((n) => ({ name: `R${n}`, address: recipient(n), amount: "1" })),
      payer: ME,
    });

    // One signature for the whole job, valid for the submit window.
    expect(signBatchPermit).toHaveBeenCalledOnce();
    const [, , owner, value, deadline] = signBatchPermit.mock.calls[0];
    expect(owner).toBe(ME);
    expect(value).toBe(usdx(5));
    const now = BigInt(Math.floor(Date.now() / 1000));
    expect(deadline > now + BigInt(PERMIT_LIFETIME_S) - 60n && deadline <= now + BigInt(PERMIT_LIFETIME_S)).toBe(true);

    // One runner request per chunk: the first carries the permit, the others spend its allowance.
    expect(run).toHaveBeenCalledTimes(3);
    for (const [request] of run.mock.calls) expect(request).toMatchObject({ success: null, failureTitle: "Transfer failed", modal: false });
    const plan = executeAnswer([2, 2, 1]).chunks;
    expect(batchContract.payWithPermit).toHaveBeenCalledOnce();
    const first = [
      plan[0].recipients,
      [usdx(1), usdx(1)],
      plan[0].reference,
      usdx(5),
      deadline,
      permit.v,
      permit.r,
      permit.s,
      { gasLimit: chunkGasLimit(2) },
    ];
    expect(batchContract.payWithPermit).toHaveBeenCalledWith(...first);
    // The runner's dry run: the same method and arguments, from the payer, at the latest block.
    const at = { from: ME, blockTag: "latest" };
    expect(batchContract.payWithPermit.staticCall).toHaveBeenCalledWith(...first.slice(0, -1), { gasLimit: chunkGasLimit(2), ...at });
    const rest = [
      [plan[1].recipients, [usdx(1), usdx(1)], plan[1].reference, { gasLimit: chunkGasLimit(2) }],
      [plan[2].recipients, [usdx(1)], plan[2].reference, { gasLimit: chunkGasLimit(1) }],
    ];
    expect(batchContract.pay.mock.calls).toEqual(rest);
    expect(batchContract.pay.staticCall.mock.calls).toEqual(
      rest.map((args) => [...args.slice(0, -1), { ...(args.at(-1) as object), ...at }]),
    );

    // Each hash reaches the server as soon as the wallet sends it.
    expect(api.of("POST", `/api/batch/${JOB_ID}/transactions`).map((c) => c.body)).toEqual([
      { chunkIndex: 0, txHash: HASH_1 },
      { chunkIndex: 1, txHash: HASH_2 },
      { chunkIndex: 2, txHash: HASH_3 },
    ]);

    expect(lastToast()).toMatchObject({ title: "Batch transfer completed", description: "sent 5.00 USDX to 5 recipients" });
    const transactions = screen.getByRole("list", { name: "Transactions" });
    for (const hash of [HASH_1, HASH_2, HASH_3])
      expect(within(transactions).getByRole("link", { name: `Transaction ${hash}` })).toHaveAttribute("href", `/tx/${hash}`);
    expect(usePayments.getState().txHash).toBe(HASH_3);
  });

  it("toasts 'Processing batch transfer' once the server accepts the batch", async () => {
    batchServer(parsedOf(2), [2]);
    run.mockImplementation(() => new Promise<TxOutcome>(() => {}));
    connect();
    const { user } = renderPage(<PaymentsPage />);
    await user.click(await loadRecipients(user));
    await vi.waitFor(() => expect(run).toHaveBeenCalled());
    expect(toasts()[0]).toMatchObject({ title: "Processing batch transfer", description: "Batch started: 2 recipients in 1 transaction." });
  });

  it("shows the progress over chunks and recipients, with the hash of each chunk sent", async () => {
    batchServer(parsedOf(5), [2, 2, 1]);
    let finishSecond: (outcome: TxOutcome) => void = () => {};
    let n = 0;
    run.mockImplementation(async (request) => {
      await runCall(request);
      const i = n++;
      request.onSent?.([HASH_1, HASH_2, HASH_3][i]);
      if (i !== 1) return { ok: true, hash: [HASH_1, HASH_2, HASH_3][i], error: null };
      return new Promise<TxOutcome>((resolve) => (finishSecond = resolve));
    });
    connect();
    const { user } = renderPage(<PaymentsPage />);
    await user.click(await loadRecipients(user));

    expect(await screen.findByText("Chunk 2 of 3 · 2 of 5 recipients paid")).toBeInTheDocument();
    expect(screen.getByRole("progressbar", { name: "Recipients paid" })).toHaveAttribute("aria-valuenow", "2");
    const items = within(screen.getByRole("list", { name: "Transactions" })).getAllByRole("listitem");
    expect(within(items[0]).getByText("Paid")).toBeInTheDocument();
    expect(within(items[0]).getByRole("link", { name: `Transaction ${HASH_1}` })).toBeInTheDocument();
    expect(within(items[1]).getByText("Submitted")).toBeInTheDocument();
    expect(within(items[1]).getByRole("link", { name: `Transaction ${HASH_2}` })).toBeInTheDocument();
    expect(within(items[2]).getByText("Waiting")).toBeInTheDocument();

    await act(async () => finishSecond({ ok: true, hash: HASH_2, error: null }));
    expect(await screen.findByText("Batch transfer completed", { selector: "h2" })).toBeInTheDocument();
  });

  it("adds the recipients to the contacts when asked", async () => {
    const { api } = batchServer(parsedOf(2), [2]);
    runnerPays([HASH_1]);
    connect();
    const { user } = renderPage(<PaymentsPage />);
    const pay = await loadRecipients(user);
    await user.click(screen.getByLabelText("Add recipients to contacts"));
    await user.click(pay);
    await vi.waitFor(() => expect(api.of("POST", "/api/contacts/import")).toHaveLength(1));
    const csv = api.of<BodyOf<"POST /api/contacts/import">>("POST", "/api/contacts/import")[0].body.csvData;
    expect(csv).toBe(`Name,Address\r\nR1,${recipient(1)}\r\nR2,${recipient(2)}`);
    await screen.findByText("2 recipients added to your contacts.");
    expect(toasts().some((t) => t.title === "Contacts updated") || lastToast().title === "Batch transfer completed").toBe(true);
  });

  it("does not touch the contacts unless asked", async () => {
    const { api } = batchServer(parsedOf(2), [2]);
    runnerPays([HASH_1]);
    connect();
    const { user } = renderPage(<PaymentsPage />);
    await user.click(await loadRecipients(user));
    await screen.findByText("Batch transfer completed", { selector: "h2" });
    expect(api.of("POST", "/api/contacts/import")).toHaveLength(0);
  });
});

describe("Payments: a chunk's transaction", () => {
  const [chunk] = executeAnswer([3]).chunks;
  const signed = { value: usdx(3), deadline: 1n, ...permit };

  it("declares one call: the runner's dry run and the send use the same method and arguments", async () => {
    const request = chunkRequest(chunk, 1, signed, () => {});
    await runCall(request);
    const args = [
      chunk.recipients,
      chunk.amounts.map(BigInt),
      chunk.reference,
      signed.value,
      signed.deadline,
      permit.v,
      permit.r,
      permit.s,
    ];
    expect(batchContract.payWithPermit.staticCall).toHaveBeenCalledWith(...args, {
      gasLimit: chunkGasLimit(3),
      from: ME,
      blockTag: "latest",
    });
    expect(batchContract.payWithPermit).toHaveBeenCalledWith(...args, { gasLimit: chunkGasLimit(3) });
  });

  it("carries a gas limit from the chunk's size, never above the per-transaction cap", () => {
    expect(chunkGasLimit(1)).toBeLessThan(chunkGasLimit(2));
    expect(chunkGasLimit(564)).toBeLessThanOrEqual(BigInt(TRANSACTION_GAS_CAP));
    expect(chunkGasLimit(10_000)).toBe(BigInt(TRANSACTION_GAS_CAP));
  });
});

describe("Payments: a chunk that fails, and Try Again", () => {
  it("stops at the failed chunk, shows the failed panel, and Try Again sends only the unpaid chunks of the same job", async () => {
    const { api, reported } = batchServer(parsedOf(5), [2, 2, 1]);
    runnerPays([HASH_1, HASH_2], 1);
    connect();
    const { user } = renderPage(<PaymentsPage />);
    await user.click(await loadRecipients(user));

    expect(await screen.findByText("Batch transfer failed")).toBeInTheDocument();
    expect(screen.getByText("The transaction was mined but reverted.")).toBeInTheDocument();
    expect(run).toHaveBeenCalledTimes(2);
    expect(screen.getByText(/2 of 5 recipients are paid/)).toBeInTheDocument();
    // Something is paid: going back to the recipients would pay them twice.
    expect(screen.queryByRole("button", { name: "Back to recipients" })).not.toBeInTheDocument();

    // The server saw chunk 1 fail; chunk 2 was never sent.
    reported.delete(1);
    run.mockReset();
    signBatchPermit.mockClear();
    batchContract.payWithPermit.mockClear();
    batchContract.pay.mockClear();
    runnerPays([HASH_2, HASH_3]);
    await user.click(screen.getByRole("button", { name: "Try Again" }));

    expect(await screen.findByText("Batch transfer completed", { selector: "h2" })).toBeInTheDocument();
    expect(api.of("POST", "/api/batch/execute")).toHaveLength(1);
    expect(signBatchPermit).toHaveBeenCalledOnce();
    expect(signBatchPermit.mock.calls[0][3]).toBe(usdx(3));
    const plan = executeAnswer([2, 2, 1]).chunks;
    expect(batchContract.payWithPermit.mock.calls[0][0]).toEqual(plan[1].recipients);
    expect(batchContract.pay.mock.calls).toEqual([[plan[2].recipients, [usdx(1)], plan[2].reference, { gasLimit: chunkGasLimit(1) }]]);
    expect(
      api.of<BodyOf<"POST /api/batch/:id/transactions">>("POST", `/api/batch/${JOB_ID}/transactions`).map((c) => c.body.chunkIndex),
    ).toEqual([0, 1, 1, 2]);
  });

  it("fails with the wallet's reason when the permit is not signed; nothing paid, the recipients can be taken back", async () => {
    batchServer(parsedOf(2), [2]);
    signBatchPermit.mockRejectedValueOnce(Object.assign(new Error("User rejected the request."), { code: 4001 }));
    connect();
    const { user } = renderPage(<PaymentsPage />);
    await user.click(await loadRecipients(user));
    expect(await screen.findByText("Batch transfer failed")).toBeInTheDocument();
    expect(screen.getByText("You rejected the request in your wallet.")).toBeInTheDocument();
    expect(lastToast()).toMatchObject({ title: "Transfer failed", description: "You rejected the request in your wallet." });
    expect(run).not.toHaveBeenCalled();

    // PRODUCT.md section 4: back to the start, the recipients kept.
    await user.click(screen.getByRole("button", { name: "Back to recipients" }));
    expect(screen.getByRole("button", { name: "Pay 2 recipients" })).toBeInTheDocument();
    expect(within(screen.getByRole("table", { name: "Recipients" })).getByText("R1")).toBeInTheDocument();
  });

  it("dry-runs what the chunks will check for the payer before the permit: a refusal is told and nothing is signed", async () => {
    batchServer(parsedOf(2), [2]);
    const paused =
      "USDX is paused: no tokens can be transferred, minted or burned until it is unpaused. Nothing was sent: your wallet was not asked to sign.";
    dryRun.mockRejectedValueOnce(new NotSentError(paused, "refused"));
    connect();
    const { user } = renderPage(<PaymentsPage />);
    await user.click(await loadRecipients(user));
    expect(await screen.findByText("Batch transfer failed")).toBeInTheDocument();
    expect(lastToast()).toMatchObject({ title: "Transfer failed", description: paused, variant: "destructive" });
    expect(signBatchPermit).not.toHaveBeenCalled();
    expect(run).not.toHaveBeenCalled();

    // The check is a self-transfer of the run's total from the payer.
    const [call, , wallet] = dryRun.mock.calls[0] as [(c: WriteContracts) => { send(): Promise<unknown> }, unknown, { address: string }];
    const transfer = Object.assign(
      vi.fn(async () => ({ hash: HASH_1 })),
      { staticCall: vi.fn() },
    );
    await call({ usdx: { transfer: Object.assign(transfer, { send: transfer }) }, batch: {} } as unknown as WriteContracts).send();
    expect(wallet.address).toBe(ME);
    expect(transfer).toHaveBeenCalledWith(ME, usdx(2));
  });

  it("Start New Batch clears the recipients, the hash and the status", async () => {
    batchServer(parsedOf(2), [2]);
    runnerPays([HASH_1]);
    connect();
    const { user } = renderPage(<PaymentsPage />);
    await user.click(await loadRecipients(user));
    await user.click(await screen.findByRole("button", { name: "Start New Batch" }));
    expect(usePayments.getState()).toMatchObject({ phase: "initial", upload: null, txHash: null, job: null, error: null });
    expect(screen.queryByRole("table", { name: "Recipients" })).not.toBeInTheDocument();
    expect(screen.getByLabelText("Upload CSV file")).toBeInTheDocument();
  });
});

describe("Payments: the status poll (PRODUCT.md section 4)", () => {
  const job = () => {
    const answer = executeAnswer([2]);
    return { jobId: JOB_ID, totalAmount: answer.totalAmount, totalAmountRaw: answer.totalAmountRaw, recipients: 2, chunks: answer.chunks };
  };

  /** A job already started, its chunk sent with HASH_1; the poll answers what `answers` say in turn. */
  function startedJob(answers: ReturnType<typeof jobDetail>[]) {
    const api = stubApi({
      [`GET ${detailUrl}`]: () => (answers.length > 1 ? answers.shift() : answers[0]),
      "GET /api/batch?": { success: true, jobs: [], nextBefore: null },
    });
    usePayments.setState({ upload: { fileName: "r.csv", parsed: parsedOf(2), rows: [] } });
    beginRun(job());
    usePayments.setState({
      step: "watching",
      chunks: [{ status: "submitted", txHash: HASH_1 }],
      txHash: HASH_1,
      runHashes: [HASH_1],
      sendingDoneAt: Date.now(),
    });
    connect();
    return api;
  }

  it("asks every 3 s while transferring, remembers a new txHash, completes on 'completed' and then stops asking", async () => {
    fakeClock();
    const api = startedJob([
      jobDetail({ txHash: HASH_1 }, [{ status: "submitted", txHash: HASH_1 }]),
      jobDetail({ txHash: HASH_2 }, [{ status: "submitted", txHash: HASH_2 }]),
      jobDetail({ status: "completed", txHash: HASH_2, recipientsPaid: 2 }, [{ status: "confirmed", txHash: HASH_2 }]),
    ]);
    renderPage(<PaymentsPage />);
    await tick(0);
    expect(api.of("GET", detailUrl)).toHaveLength(1);
    expect(screen.getByText("Processing batch transfer", { selector: "h2" })).toBeInTheDocument();

    await tick(2980);
    expect(api.of("GET", detailUrl)).toHaveLength(1);
    await tick(10);
    expect(api.of("GET", detailUrl)).toHaveLength(2);
    expect(usePayments.getState()).toMatchObject({ phase: "transferring", txHash: HASH_2 });

    await tick(3000);
    expect(usePayments.getState()).toMatchObject({ phase: "completed", txHash: HASH_2 });
    expect(screen.getByText("Batch transfer completed", { selector: "h2" })).toBeInTheDocument();
    expect(lastToast()).toMatchObject({ title: "Batch transfer completed", description: "sent 2.00 USDX to 2 recipients" });

    await tick(9000);
    expect(api.of("GET", detailUrl)).toHaveLength(3);
  });

  it("fails on 'failed' with the status error", async () => {
    fakeClock();
    startedJob([
      jobDetail({ status: "failed", error: "Chunk 1 of 1: Transaction 0xa1 reverted: USDX is paused." }, [
        { status: "failed", txHash: HASH_1 },
      ]),
    ]);
    renderPage(<PaymentsPage />);
    await tick(0);
    expect(usePayments.getState().phase).toBe("failed");
    expect(screen.getByText("Batch transfer failed")).toBeInTheDocument();
    expect(screen.getByText("Chunk 1 of 1: Transaction 0xa1 reverted: USDX is paused.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try Again" })).toBeInTheDocument();
  });

  it("shows the spec's text when a failed status carries no error", async () => {
    fakeClock();
    startedJob([jobDetail({ status: "failed", error: null }, [{ status: "failed", txHash: HASH_1 }])]);
    renderPage(<PaymentsPage />);
    await tick(0);
    expect(screen.getByText(FAILED_FALLBACK)).toBeInTheDocument();
  });

  it("ignores a failure from before a Try Again until this run's transactions are reported", async () => {
    fakeClock();
    startedJob([jobDetail({ status: "failed", error: "old" }, [{ status: "failed", txHash: HASH_3 }])]);
    usePayments.setState({ runHashes: [], sendingDoneAt: null, step: "chunk" });
    renderPage(<PaymentsPage />);
    await tick(3000);
    expect(usePayments.getState().phase).toBe("transferring");
  });

  it("after a timeout, Try Again waits until the wallet's open question is answered", async () => {
    fakeClock();
    startedJob([jobDetail({}, [{ status: "pending" }])]);
    usePayments.setState({
      step: "chunk",
      activeChunk: 0,
      chunks: [{ status: "sending", txHash: null }],
      runHashes: [],
      sendingDoneAt: null,
    });
    renderPage(<PaymentsPage />);
    await tick(TRANSFER_TIMEOUT_MS);
    expect(screen.getByRole("button", { name: "Try Again" })).toBeDisabled();
    expect(screen.getByText(/Your wallet is still asking you to confirm chunk 1/)).toBeInTheDocument();
  });

  it("gives up after 5 minutes with 'Transfer timeout'", async () => {
    fakeClock();
    startedJob([jobDetail({ txHash: HASH_1 }, [{ status: "submitted", txHash: HASH_1 }])]);
    renderPage(<PaymentsPage />);
    await tick(TRANSFER_TIMEOUT_MS - 100);
    expect(usePayments.getState().phase).toBe("transferring");
    await tick(100);
    expect(lastToast()).toMatchObject({
      title: "Transfer timeout",
      description: "The transfer is taking longer than expected. Please check the status later.",
      variant: "destructive",
    });
    expect(usePayments.getState().phase).toBe("failed");
    expect(screen.getByText(TIMEOUT_MESSAGE)).toBeInTheDocument();
  });
});
