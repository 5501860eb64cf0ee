import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, screen } from "@testing-library/react";
import { STATUS_POLL_MS } from "./hooks/useBatchStatus";
import PaymentsPage from "./pages/PaymentsPage";
import { beginRun, usePayments } from "./stores/paymentsStore";
import {
  HASH_1,
  JOB_ID,
  connect,
  executeAnswer,
  giveElementsHeight,
  jobDetail,
  json,
  parsedOf,
  renderPage,
  resetAll,
  stubApi,
} from "./testUtils";

vi.mock("@/lib/chain/queries", async () => (await import("./testUtils")).queriesMock);
vi.mock("@/lib/tx/runner", async () => (await import("./testUtils")).runnerMock);
vi.mock("@/lib/chain/contracts", async () => (await import("./testUtils")).contractsMock);
vi.mock("@/lib/tx/dryRun", async () => (await import("./testUtils")).dryRunMock);

// The server's own words for a dependency that does not answer (server/src/lib/errors.ts: a 503).
const UNAVAILABLE = "Cannot read the job: the database is not answering. Try again shortly.";
const detailUrl = `/api/batch/${JOB_ID}?`;

// Taken before any clock is faked: some of TanStack Query's notifications ride on real timers.
const realSetTimeout = globalThis.setTimeout;

/** Moves the fake clock on by `ms`, then lets the answers it set off arrive. */
async function tick(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => realSetTimeout(resolve, 2));
      await vi.advanceTimersByTimeAsync(1);
    }
  });
}

beforeEach(() => {
  resetAll();
  giveElementsHeight();
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("Payments: the status poll while the API server is unavailable (issue 7: the dashboard shows it)", () => {
  it("shows the server's 503 sentence, keeps asking every 3 s, and clears it when the server answers again", async () => {
    let down = true;
    const api = stubApi({
      [`GET ${detailUrl}`]: () =>
        down
          ? json({ success: false, error: UNAVAILABLE }, 503)
          : jobDetail({ status: "completed", txHash: HASH_1, recipientsPaid: 2 }, [{ status: "confirmed", txHash: HASH_1 }]),
      "GET /api/batch?": { success: true, jobs: [], nextBefore: null },
    });
    // A job whose only chunk is sent: the screen waits for the server to see it paid.
    const answer = executeAnswer([2]);
    usePayments.setState({ upload: { fileName: "r.csv", parsed: parsedOf(2), rows: [] } });
    beginRun({
      jobId: JOB_ID,
      totalAmount: answer.totalAmount,
      totalAmountRaw: answer.totalAmountRaw,
      recipients: 2,
      chunks: answer.chunks,
    });
    usePayments.setState({
      step: "watching",
      chunks: [{ status: "submitted", txHash: HASH_1 }],
      txHash: HASH_1,
      runHashes: [HASH_1],
      sendingDoneAt: Date.now(),
    });
    connect();

    renderPage(<PaymentsPage />);
    await tick(0);
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("Cannot get the batch status from the server");
    expect(alert).toHaveTextContent(UNAVAILABLE);
    // The failure is the server's, not the batch's: the screen still waits for the payment.
    expect(usePayments.getState().phase).toBe("transferring");
    expect(screen.getByText("Processing batch transfer", { selector: "h2" })).toBeInTheDocument();

    await tick(STATUS_POLL_MS);
    expect(api.of("GET", detailUrl).length).toBeGreaterThanOrEqual(2);
    expect(screen.getByRole("alert")).toHaveTextContent(UNAVAILABLE);

    // The server is back: the next poll brings the job's real state, and the notice goes.
    down = false;
    await tick(STATUS_POLL_MS);
    expect(usePayments.getState().phase).toBe("completed");
    expect(screen.getByText("Batch transfer completed", { selector: "h2" })).toBeInTheDocument();
    expect(screen.queryByText(/Cannot get the batch status/)).not.toBeInTheDocument();
  });

  it("says so in words when the server cannot be reached at all (no answer, no JSON)", async () => {
    let down = true;
    stubApi({
      [`GET ${detailUrl}`]: () => {
        if (down) throw new TypeError("Failed to fetch");
        return jobDetail({ txHash: HASH_1 }, [{ status: "submitted", txHash: HASH_1 }]);
      },
      "GET /api/batch?": { success: true, jobs: [], nextBefore: null },
    });
    const answer = executeAnswer([2]);
    usePayments.setState({ upload: { fileName: "r.csv", parsed: parsedOf(2), rows: [] } });
    beginRun({
      jobId: JOB_ID,
      totalAmount: answer.totalAmount,
      totalAmountRaw: answer.totalAmountRaw,
      recipients: 2,
      chunks: answer.chunks,
    });
    usePayments.setState({
      step: "watching",
      chunks: [{ status: "submitted", txHash: HASH_1 }],
      txHash: HASH_1,
      runHashes: [HASH_1],
      sendingDoneAt: Date.now(),
    });
    connect();

    renderPage(<PaymentsPage />);
    await tick(0);
    expect(screen.getByRole("alert")).toHaveTextContent("Failed to fetch");
    down = false;
    await tick(STATUS_POLL_MS);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(usePayments.getState().phase).toBe("transferring");
  });
});
