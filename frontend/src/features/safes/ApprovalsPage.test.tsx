import { beforeEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { encodeTokenCall } from "@common/safeCalls";
import { execTransactionArgs, packSignatures, plainSafeTx, rejectionSafeTx } from "@common/safe";
import type { SafeProposal } from "@common/api/safes";
import { useToasts } from "@/components/ui/toast";
import type { TxRequest } from "@/lib/tx/runner";
import { initialWalletState, useWallet } from "@/lib/wallet/store";
import { renderAtHome, testConfig } from "@/test/render";
import { OPERATIONS_SAFE, proposal, safeInfo } from "@/test/safes";
import ApprovalsPage from "./pages/ApprovalsPage";

const { run, signSafeTx, readSafeNonce } = vi.hoisted(() => ({ run: vi.fn(), signSafeTx: vi.fn(), readSafeNonce: vi.fn() }));
vi.mock("@/lib/tx/runner", () => ({ useTransactor: () => run }));
vi.mock("@/lib/chain/queries", () => ({
  chainKeys: { all: ["chain"] },
  useTokenFigures: () => ({ data: { rewardMultiplier: 10n ** 18n } }),
}));
vi.mock("@/lib/chain/contracts", () => ({ readProvider: () => ({}), readSafeNonce, signSafeTx }));

const ME = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const OTHER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const THIRD = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const USDX = 10n ** 18n;
const SIGNATURE = `0x${"ef".repeat(64)}1b`;
const SAFE = safeInfo({ owners: [ME, OTHER, THIRD], nonce: "4", nextNonce: "5" });
const MINT = plainSafeTx(testConfig.contracts.proxy, encodeTokenCall("mint", [OTHER, 250n * USDX]), "4");
const PROPOSALS = `/api/safes/${OPERATIONS_SAFE}/proposals`;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** The API: the Safes, one Safe's proposals, and what each POST received (answered by `answers`). */
function api(proposals: SafeProposal[], answers: Record<string, (body: never) => Response> = {}) {
  const posted: { url: string; body: Record<string, unknown> }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (init?.method === "POST") {
        const body = JSON.parse(String(init.body));
        posted.push({ url, body });
        const answer = answers[url];
        return answer ? answer(body as never) : json({ error: `no stub for POST ${url}` }, 404);
      }
      if (url === "/api/safes") return json({ safes: [SAFE] });
      if (url === PROPOSALS) return json({ safe: SAFE, proposals });
      return json({ error: `no stub for ${url}` }, 404);
    }),
  );
  return posted;
}

const connect = (address = ME) =>
  useWallet.setState({
    status: "connected",
    address,
    chainId: testConfig.chainId,
    provider: { request: vi.fn() },
    walletId: "x",
    walletName: "X",
  });
const lastToast = () => useToasts.getState().toasts[0];
const item = (name: RegExp) => screen.findByRole("listitem", { name });

beforeEach(() => {
  vi.unstubAllGlobals();
  useToasts.setState({ toasts: [] });
  useWallet.setState({ ...initialWalletState });
  run.mockReset().mockResolvedValue({ ok: true, hash: "0x1", error: null });
  signSafeTx.mockReset().mockResolvedValue(SIGNATURE);
  readSafeNonce.mockReset().mockResolvedValue(4n);
});

describe("Approvals (/approvals)", () => {
  it("shows each Safe with its address, threshold, nonce and owners, and a pending proposal in words with its approvals", async () => {
    connect();
    api([proposal(31337, SAFE, MINT, [{ owner: OTHER }])]);
    renderAtHome(<ApprovalsPage />);
    expect(screen.getByRole("heading", { name: "Approvals", level: 1 })).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Operations Safe" })).toBeInTheDocument();
    expect(screen.getAllByRole("button", { name: `Copy address ${OPERATIONS_SAFE}` }).length).toBeGreaterThan(0);
    expect(screen.getByText("Threshold").nextSibling).toHaveTextContent("2 of 3");
    expect(screen.getByText("Nonce").nextSibling).toHaveTextContent("4");
    const owners = screen.getByRole("list", { name: "Owners of Operations Safe" });
    expect(within(owners).getAllByRole("listitem")).toHaveLength(3);
    expect(within(owners).getByText("(you)")).toBeInTheDocument();

    const pending = await item(/^Mint 250\.00 USDX to 0x3C44\.\.\.93BC$/);
    expect(within(pending).getByText("Nonce 4")).toBeInTheDocument();
    expect(pending).toHaveTextContent("1 of 2 approvals");
    expect(pending).toHaveTextContent(/Proposed by .*0x3C44/);
    const marks = within(within(pending).getByRole("list", { name: "Owners' approvals" }))
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(marks).toEqual([
      expect.stringMatching(/0x7099\.\.\.79C8.*\(you\)Not yet approved$/),
      expect.stringMatching(/0x3C44\.\.\.93BCApproved$/),
      expect.stringMatching(/0x90F7\.\.\.b906Not yet approved$/),
    ]);
    // Below the threshold: Approve and Reject, no Execute.
    expect(within(pending).getByRole("button", { name: "Approve" })).toBeEnabled();
    expect(within(pending).getByRole("button", { name: "Reject" })).toBeEnabled();
    expect(within(pending).queryByRole("button", { name: "Execute" })).not.toBeInTheDocument();
  });

  it("says under the count what changed in the Safe since a proposal was made", async () => {
    connect();
    const changes = [
      "The threshold changed from 2 to 3 after this was proposed.",
      `${THIRD} approved but is no longer an owner: that approval does not count.`,
    ];
    api([{ ...proposal(31337, SAFE, MINT, [{ owner: OTHER }, { owner: THIRD, current: false }]), changes }]);
    renderAtHome(<ApprovalsPage />);
    expect(await screen.findByRole("heading", { name: "Operations Safe" })).toBeInTheDocument();
    const pending = await item(/^Mint 250\.00 USDX to 0x3C44\.\.\.93BC$/);
    const notes = within(pending).getByRole("list", { name: "Changed since proposed" });
    expect(
      within(notes)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(changes);
  });

  it("shows no change note when nothing changed", async () => {
    connect();
    api([proposal(31337, SAFE, MINT, [{ owner: OTHER }])]);
    renderAtHome(<ApprovalsPage />);
    expect(await screen.findByRole("heading", { name: "Operations Safe" })).toBeInTheDocument();
    const pending = await item(/^Mint 250\.00 USDX to 0x3C44\.\.\.93BC$/);
    expect(within(pending).queryByRole("list", { name: "Changed since proposed" })).not.toBeInTheDocument();
  });

  it("Approve signs the proposal's SafeTx and posts the signature", async () => {
    connect();
    const pendingProposal = proposal(31337, SAFE, MINT, [{ owner: OTHER }]);
    const approvals = `${PROPOSALS}/${pendingProposal.safeTxHash}/approvals`;
    const posted = api([pendingProposal], {
      [approvals]: () => json({ proposal: proposal(31337, SAFE, MINT, [{ owner: OTHER }, { owner: ME, signature: SIGNATURE }]) }),
    });
    const { user } = renderAtHome(<ApprovalsPage />);
    await user.click(within(await item(/^Mint 250/)).getByRole("button", { name: "Approve" }));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({ title: "Approval added", description: "Enough owners have approved: it can be executed." }),
    );
    expect(signSafeTx).toHaveBeenCalledWith(testConfig, expect.anything(), ME, OPERATIONS_SAFE, MINT);
    expect(posted).toEqual([{ url: approvals, body: { signature: SIGNATURE } }]);
  });

  it("shows the server's refusal of an approval in its own words", async () => {
    connect();
    const pendingProposal = proposal(31337, SAFE, MINT, [{ owner: OTHER }]);
    api([pendingProposal], {
      [`${PROPOSALS}/${pendingProposal.safeTxHash}/approvals`]: () =>
        json({ success: false, error: "This proposal has ended: another proposal used nonce 4." }, 409),
    });
    const { user } = renderAtHome(<ApprovalsPage />);
    await user.click(within(await item(/^Mint 250/)).getByRole("button", { name: "Approve" }));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({
        title: "Approval failed",
        description: "This proposal has ended: another proposal used nonce 4.",
        variant: "destructive",
      }),
    );
  });

  it("offers Execute at the threshold and runs execTransaction with the owners' signatures through the runner", async () => {
    connect();
    const ready = proposal(31337, SAFE, MINT, [{ owner: OTHER }, { owner: ME }, { owner: THIRD, current: false }]);
    api([ready]);
    const { user } = renderAtHome(<ApprovalsPage />);
    const pending = await item(/^Mint 250/);
    expect(pending).toHaveTextContent("2 of 2 approvals: ready to execute");
    expect(within(pending).queryByRole("button", { name: "Approve" })).not.toBeInTheDocument();
    await user.click(within(pending).getByRole("button", { name: "Execute" }));
    await waitFor(() => expect(run).toHaveBeenCalledTimes(1));

    const request: TxRequest = run.mock.calls[0][0];
    expect(request.action).toBe("Execute: Mint 250.00 USDX to 0x3C44...93BC");
    expect(request.success).toEqual({ title: "Proposal executed", description: "Mint 250.00 USDX to 0x3C44...93BC" });
    // The call the runner dry-runs and sends: the Safe's execTransaction with the current owners' signatures, sorted.
    const send = vi.fn(async () => ({ hash: "0x1" }));
    const bound = vi.fn(() => ({ execTransaction: Object.assign(send, { send }) }));
    await request.call({ safe: bound } as never).send();
    expect(bound).toHaveBeenCalledWith(OPERATIONS_SAFE);
    const signatures = packSignatures(ready.approvals.slice(0, 2));
    expect(send).toHaveBeenCalledWith(...execTransactionArgs(MINT, signatures));
  });

  it("Execute says 'Already executed' and sends nothing when the Safe's nonce has moved past the proposal's", async () => {
    connect();
    api([proposal(31337, SAFE, MINT, [{ owner: OTHER }, { owner: ME }])]);
    readSafeNonce.mockResolvedValue(5n);
    const { user } = renderAtHome(<ApprovalsPage />);
    await user.click(within(await item(/^Mint 250/)).getByRole("button", { name: "Execute" }));
    await waitFor(() => expect(lastToast()?.title).toBe("Already executed"));
    expect(lastToast().description).toContain("The Safe has already used nonce 4");
    expect(run).not.toHaveBeenCalled();
  });

  it("Reject proposes Safe's rejection at the same nonce", async () => {
    connect();
    const rejection = rejectionSafeTx(OPERATIONS_SAFE, "4");
    const posted = api([proposal(31337, SAFE, MINT, [{ owner: OTHER }])], {
      [PROPOSALS]: () => json({ proposal: proposal(31337, SAFE, rejection, [{ owner: ME }]) }, 201),
    });
    const { user } = renderAtHome(<ApprovalsPage />);
    await user.click(within(await item(/^Mint 250/)).getByRole("button", { name: "Reject" }));
    await waitFor(() => expect(lastToast()).toMatchObject({ title: "Rejection proposed", description: "Awaiting 1 more approval" }));
    expect(signSafeTx).toHaveBeenCalledWith(testConfig, expect.anything(), ME, OPERATIONS_SAFE, rejection);
    expect(posted).toEqual([{ url: PROPOSALS, body: { tx: rejection, signature: SIGNATURE } }]);
  });

  it("lists a proposed rejection in words, without another Reject on the proposal it rejects", async () => {
    connect();
    api([
      proposal(31337, SAFE, MINT, [{ owner: OTHER }]),
      proposal(31337, SAFE, rejectionSafeTx(OPERATIONS_SAFE, "4"), [{ owner: THIRD }]),
    ]);
    renderAtHome(<ApprovalsPage />);
    const rejection = await item(/^Reject: use up this nonce without doing anything$/);
    expect(within(rejection).queryByRole("button", { name: "Reject" })).not.toBeInTheDocument();
    expect(within(await item(/^Mint 250/)).queryByRole("button", { name: "Reject" })).not.toBeInTheDocument();
  });

  it("gives a wallet that is not an owner no buttons", async () => {
    connect("0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65");
    api([proposal(31337, SAFE, MINT, [{ owner: OTHER }])]);
    renderAtHome(<ApprovalsPage />);
    const pending = await item(/^Mint 250/);
    expect(within(pending).queryAllByRole("button", { name: /Approve|Execute|Reject/ })).toEqual([]);
    expect(pending).toHaveTextContent("Your wallet is not an owner of this Safe.");
  });

  it("shows ended proposals with what became of them and the transaction", async () => {
    connect();
    const hash = `0x${"12".repeat(32)}`;
    api([
      proposal(31337, SAFE, plainSafeTx(testConfig.contracts.proxy, encodeTokenCall("pause", []), "3"), [], {
        state: "executed",
        executedBy: hash,
      }),
    ]);
    renderAtHome(<ApprovalsPage />);
    expect(await screen.findByText("No pending proposals")).toBeInTheDocument();
    const ended = screen.getByRole("list", { name: "Ended proposals" });
    expect(ended).toHaveTextContent("ExecutedPause USDX: stop all transfers, mints and burnsNonce 3");
    expect(within(ended).getByRole("link", { name: `Transaction ${hash}` })).toHaveAttribute("href", `/tx/${hash}`);
  });

  it("says 'No Safe holds a USDX role' when none does", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => json({ safes: [] })),
    );
    renderAtHome(<ApprovalsPage />);
    expect(await screen.findByText("No Safe holds a USDX role")).toBeInTheDocument();
  });

  it("says so when the Safes cannot be loaded, with Retry", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => json({ success: false, error: "The chain could not be read." }, 503)),
    );
    renderAtHome(<ApprovalsPage />);
    expect(await screen.findByText("Failed to load Safes")).toBeInTheDocument();
    expect(screen.getByText("The chain could not be read.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Retry" })).toBeInTheDocument();
  });
});
