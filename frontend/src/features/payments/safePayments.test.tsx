import { beforeEach, describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import type { UserEvent } from "@testing-library/user-event";
import { chunkSafeTx } from "@common/safeBatch";
import type { SafeInfo } from "@common/api/safes";
import type { Api } from "@common/api";
import type { RequestOf } from "@common/api/endpoint";
import PaymentsPage from "./pages/PaymentsPage";
import {
  JOB_ID,
  ME,
  SAFE_SIGNATURE,
  connect,
  csvFile,
  executeAnswer,
  giveElementsHeight,
  jobDetail,
  parsedOf,
  renderPage,
  resetAll,
  run,
  signBatchPermit,
  signSafeTx,
  stubApi,
  testConfig,
} from "./testUtils";

vi.mock("@/lib/chain/queries", async () => (await import("./testUtils")).queriesMock);
vi.mock("@/lib/tx/runner", async () => (await import("./testUtils")).runnerMock);
vi.mock("@/lib/chain/contracts", async () => (await import("./testUtils")).contractsMock);
vi.mock("@/lib/tx/dryRun", async () => (await import("./testUtils")).dryRunMock);

type BodyOf<K extends keyof Api> = RequestOf<Api[K]>["body"];

const SAFE = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const MULTISEND = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";

const operationsSafe = (owners: string[]): SafeInfo => ({
  address: SAFE,
  name: "Operations Safe",
  owners,
  threshold: 2,
  nonce: "3",
  roles: ["MINTER_ROLE"],
  nextNonce: "4",
});

/** The API for a job of `sizes` chunks paid from the Safe: every proposal is stored, none is executed yet. */
function safeServer(owners: string[], sizes: number[]) {
  const proposed = new Set<number>();
  const api = stubApi({
    "GET /api/safes": { success: true, safes: [operationsSafe(owners)] },
    "POST /api/batch/parse-csv": { success: true, error: null, data: parsedOf(sizes.reduce((a, b) => a + b, 0)) },
    "POST /api/batch/execute": () =>
      new Response(JSON.stringify({ ...executeAnswer(sizes), payerIsSafe: true, multiSendCallOnly: MULTISEND }), { status: 201 }),
    [`POST /api/safes/${SAFE}/proposals`]: (body: { tx: { nonce: string } }) => {
      proposed.add(Number(body.tx.nonce) - 4);
      return new Response(JSON.stringify({ success: true, proposal: {} }), { status: 201 });
    },
    [`GET /api/batch/${JOB_ID}?`]: () =>
      jobDetail(
        { payer: SAFE, payerIsSafe: true },
        sizes.map((size, i) => ({
          recipients: size,
          proposal: proposed.has(i) ? { safeTxHash: `0x${String(i + 1).repeat(64)}`, nonce: 4 + i, state: "pending" as const } : null,
        })),
      ),
    "GET /api/batch?": { success: true, jobs: [], nextBefore: null },
  });
  return api;
}

async function loadRecipients(user: UserEvent) {
  await user.upload(screen.getByLabelText("Upload CSV file"), csvFile("Name,Address,Amount\n"));
  return screen.findByRole("button", { name: /^Pay / });
}

beforeEach(() => {
  resetAll();
  giveElementsHeight();
});

describe("Payments: 'Pay from' a Safe the wallet owns", () => {
  it("offers the wallet and the Safe; from the Safe, each chunk is proposed at consecutive nonces with one signature each, and awaits approval", async () => {
    const api = safeServer([ME, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"], [2, 1]);
    connect();
    const { user } = renderPage(<PaymentsPage />);
    const pay = await loadRecipients(user);
    const payFrom = await screen.findByRole("group", { name: "Pay from" });
    expect(within(payFrom).getByRole("radio", { name: /^Your wallet/ })).toBeChecked();
    await user.click(within(payFrom).getByRole("radio", { name: /^Operations Safe/ }));
    expect(screen.getByText(/Operations Safe needs 2 of 2 owners' approvals before this runs\./)).toBeInTheDocument();
    await user.click(pay);

    await screen.findByText(/^Proposed to Operations Safe: 2 chunks await approval\./);
    expect(api.of<BodyOf<"POST /api/batch/execute">>("POST", "/api/batch/execute")[0].body.payer).toBe(SAFE);
    const plan = executeAnswer([2, 1]).chunks;
    const where = { token: testConfig.contracts.proxy, batchPayments: testConfig.contracts.batchPayments };
    const proposals = api.of<BodyOf<"POST /api/safes/:safe/proposals">>("POST", `/api/safes/${SAFE}/proposals`);
    expect(proposals.map((p) => p.body)).toEqual(
      plan.map((c, i) => ({
        tx: chunkSafeTx(MULTISEND, where, { ...c, amounts: c.amounts.map(BigInt), total: BigInt(c.total) }, 4 + i),
        signature: SAFE_SIGNATURE,
      })),
    );
    expect(signSafeTx).toHaveBeenCalledTimes(2);
    // Nothing is sent from the wallet: no permit, no transaction.
    expect(signBatchPermit).not.toHaveBeenCalled();
    expect(run).not.toHaveBeenCalled();
    const list = screen.getByRole("list", { name: "Transactions" });
    expect(within(list).getAllByText("Awaiting approval")).toHaveLength(2);
    expect(screen.getByRole("link", { name: "Open Approvals" })).toHaveAttribute("href", "/approvals");
  });

  it("shows no choice to a wallet that owns no Safe: it pays from the wallet", async () => {
    safeServer(["0x70997970C51812dc3A010C7d01b50e0d17dc79C8"], [1]);
    connect();
    const { user } = renderPage(<PaymentsPage />);
    await loadRecipients(user);
    expect(await screen.findByText(/^Paying from/)).toBeInTheDocument();
    expect(screen.queryByRole("group", { name: "Pay from" })).toBeNull();
  });
});
