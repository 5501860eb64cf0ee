import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import type { RecipientDetail } from "./api/types";
import PaymentsPage from "./pages/PaymentsPage";
import { HASH_1, HASH_2, JOB_ID, giveElementsHeight, jobDetail, jobSummary, recipient, renderPage, resetAll, stubApi } from "./testUtils";
import { ROW_HEIGHT } from "./components/VirtualTable";

vi.mock("@/lib/chain/queries", async () => (await import("./testUtils")).queriesMock);
vi.mock("@/lib/tx/runner", async () => (await import("./testUtils")).runnerMock);

beforeEach(() => {
  resetAll();
  giveElementsHeight();
});

const OLDER = "0b7c1d2e-3f40-4152-8364-758697a8b9ca";

const recipients = (from: number, count: number): RecipientDetail[] =>
  Array.from({ length: count }, (_, i) => ({
    position: from + i,
    chunkIndex: 0,
    name: `R${from + i + 1}`,
    address: recipient(from + i + 1),
    amount: "1",
    status: "paid",
    txHash: HASH_1,
  }));

async function openHistory() {
  const view = renderPage(<PaymentsPage />);
  await view.user.click(screen.getByRole("tab", { name: "Payment History" }));
  return view;
}

describe("Payments: Payment History", () => {
  it("says 'No batch payments found' when the user has none", async () => {
    stubApi({ "GET /api/batch?": { success: true, jobs: [], nextBefore: null } });
    await openHistory();
    expect(await screen.findByText("No batch payments found")).toBeInTheDocument();
  });

  it("lists the real jobs, newest first, with their totals, recipients paid and status", async () => {
    stubApi({
      "GET /api/batch?": {
        success: true,
        jobs: [
          jobSummary({
            status: "completed",
            totalAmountRaw: (10n ** 18n * 2500n).toString(),
            recipients: 2500,
            recipientsPaid: 2500,
            chunks: { total: 5, confirmed: 5, submitted: 0, failed: 0 },
          }),
          jobSummary({
            jobId: OLDER,
            status: "failed",
            recipients: 3,
            recipientsPaid: 0,
            createdAt: "2025-05-01T10:00:00.000Z",
            error: "Chunk 1 of 1: reverted",
          }),
        ],
        nextBefore: null,
      },
    });
    await openHistory();
    const table = await screen.findByRole("table", { name: "Batch payments" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent("2500.00");
    expect(rows[0]).toHaveTextContent("2,500/2,500");
    expect(rows[0]).toHaveTextContent("5/5");
    expect(within(rows[0]).getByText("Completed")).toBeInTheDocument();
    expect(within(rows[1]).getByText("Failed")).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent("0/3");
  });

  it("loads older jobs with the page's 'before' cursor", async () => {
    const api = stubApi({
      "GET /api/batch?limit=20&before=": { success: true, jobs: [jobSummary({ jobId: OLDER })], nextBefore: null },
      "GET /api/batch?limit=20": { success: true, jobs: [jobSummary()], nextBefore: "2025-06-01T10:00:00.000Z" },
    });
    const { user } = await openHistory();
    await user.click(await screen.findByRole("button", { name: "Load older payments" }));
    await vi.waitFor(() => expect(within(screen.getByRole("table", { name: "Batch payments" })).getAllByRole("row")).toHaveLength(3));
    expect(api.of("GET", "/api/batch?").map((c) => c.url)).toEqual([
      "/api/batch?limit=20",
      `/api/batch?limit=20&before=${encodeURIComponent("2025-06-01T10:00:00.000Z")}`,
    ]);
    expect(screen.queryByRole("button", { name: "Load older payments" })).not.toBeInTheDocument();
  });

  it("opens a job with its chunks, their transactions and every recipient", async () => {
    const detail = {
      ...jobDetail({ status: "completed", recipients: 3, recipientsPaid: 3, chunks: { total: 2, confirmed: 2, submitted: 0, failed: 0 } }, [
        { status: "confirmed", recipients: 2, totalAmount: "2", txHash: HASH_1, blockNumber: 41 },
        { status: "confirmed", recipients: 1, totalAmount: "1", txHash: HASH_2, blockNumber: 42 },
      ]),
      recipients: recipients(0, 3),
    };
    const api = stubApi({
      "GET /api/batch?": { success: true, jobs: [jobSummary({ status: "completed" })], nextBefore: null },
      [`GET /api/batch/${JOB_ID}?`]: detail,
    });
    const { user } = await openHistory();
    await user.click(await screen.findByRole("button", { name: /^Details of the batch payment/ }));

    const dialog = await screen.findByRole("dialog");
    expect(await within(dialog).findByText(`Job ${JOB_ID}`)).toBeInTheDocument();
    expect(api.of("GET", `/api/batch/${JOB_ID}`)[0].url).toBe(`/api/batch/${JOB_ID}?offset=0&limit=1000`);
    expect(within(dialog).getByText("Completed")).toBeInTheDocument();
    const chunkRows = within(within(dialog).getByRole("table", { name: "Transactions" }))
      .getAllByRole("row")
      .slice(1);
    expect(chunkRows).toHaveLength(2);
    expect(within(chunkRows[0]).getByRole("link", { name: `Transaction ${HASH_1}` })).toHaveAttribute("href", `/tx/${HASH_1}`);
    expect(within(chunkRows[1]).getByRole("link", { name: "42" })).toHaveAttribute("href", "/block/42");
    const people = within(within(dialog).getByRole("table", { name: "Batch recipients" }))
      .getAllByRole("row")
      .slice(1);
    expect(people.map((r) => within(r).getAllByRole("cell")[1].textContent)).toEqual(["R1", "R2", "R3"]);
    expect(within(people[0]).getByText("Paid")).toBeInTheDocument();
  });

  it("loads a large job's recipients page by page as the list is scrolled", async () => {
    const total = 1500;
    const api = stubApi({
      "GET /api/batch?": { success: true, jobs: [jobSummary({ status: "completed", recipients: total })], nextBefore: null },
      [`GET /api/batch/${JOB_ID}?offset=0`]: { ...jobDetail({ status: "completed", recipients: total }), recipients: recipients(0, 1000) },
      [`GET /api/batch/${JOB_ID}?offset=1000`]: {
        ...jobDetail({ status: "completed", recipients: total }),
        recipients: recipients(1000, 500),
      },
    });
    const { user } = await openHistory();
    await user.click(await screen.findByRole("button", { name: /^Details of the batch payment/ }));
    const list = await screen.findByRole("table", { name: "Batch recipients" });
    expect(within(list).getAllByRole("row").length).toBeLessThan(40);
    expect(api.of("GET", `/api/batch/${JOB_ID}`)).toHaveLength(1);

    list.scrollTop = 1000 * ROW_HEIGHT;
    fireEvent.scroll(list);
    await vi.waitFor(() => expect(api.of("GET", `/api/batch/${JOB_ID}?offset=1000&limit=1000`)).toHaveLength(1));
    await vi.waitFor(() => expect(list).toHaveAttribute("aria-rowcount", String(total + 1)));
  });

  it("says when the history cannot be loaded, and retries", async () => {
    let fail = true;
    stubApi({
      "GET /api/batch?": () =>
        fail
          ? new Response(JSON.stringify({ success: false, error: "The database is not answering." }), { status: 503 })
          : { success: true, jobs: [], nextBefore: null },
    });
    const { user } = await openHistory();
    expect(await screen.findByText("Failed to load batch payments")).toBeInTheDocument();
    expect(screen.getByText("The database is not answering.")).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("No batch payments found")).toBeInTheDocument();
  });
});
