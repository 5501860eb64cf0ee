import { describe, it, expect, vi, beforeEach } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { encodeTokenCall } from "@common/safeCalls";
import { plainSafeTx } from "@common/safe";
import { OPERATIONS_SAFE, proposal, revertWith, safeInfo, scriptedNode, scriptedReader } from "@/test/safes";
import { MintForm } from "./components/MintForm";
import { PauseCard } from "./components/PauseCard";
import { RoleGate, RoleGatedForm } from "./components/RoleGatedForm";
import {
  ME,
  OTHER,
  THIRD,
  connect,
  json,
  lastToast,
  renderScreen,
  resetAll,
  run,
  stubApi,
  testConfig,
  tokenFigures,
  useChain,
} from "./testUtils";

vi.mock("@/lib/chain/queries", async () => (await import("./testUtils")).queriesMock);
vi.mock("@/lib/tx/runner", async () => (await import("./testUtils")).runnerMock);
const { signSafeTx } = vi.hoisted(() => ({ signSafeTx: vi.fn() }));
vi.mock("@/lib/chain/contracts", async (original) => ({
  ...(await original<typeof import("@/lib/chain/contracts")>()),
  readProvider: () => scriptedReader(),
  signSafeTx,
}));

const USDX = 10n ** 18n;
const SIGNATURE = `0x${"ab".repeat(64)}1b`;
const SAFE = safeInfo({ owners: [ME, OTHER, THIRD] });
const PROPOSALS = `/api/safes/${OPERATIONS_SAFE}/proposals`;

/** The API: the Safe list, and the proposals' POST (answered by `answer`, each body recorded). */
function api(
  answer: (body: { tx: never; signature: string }) => Response = (body) =>
    json({ proposal: proposal(31337, SAFE, body.tx, [{ owner: ME }]) }, 201),
) {
  const posted: { tx: unknown; signature: string }[] = [];
  const fetchMock = stubApi({
    "/api/safes": { safes: [SAFE] },
    [PROPOSALS]: (init?: RequestInit) => {
      const body = JSON.parse(String(init?.body));
      posted.push(body);
      return answer(body);
    },
  });
  return { posted, fetchMock };
}

const mintForm = () => (
  <RoleGatedForm role="MINTER_ROLE" connectPurpose="Connect your wallet to mint.">
    <MintForm />
  </RoleGatedForm>
);

async function fillMint(user: ReturnType<typeof renderScreen>["user"], amount = "250") {
  await user.type(screen.getByLabelText("Recipient Address"), OTHER);
  await user.type(screen.getByLabelText("Amount"), amount);
  await user.click(screen.getByRole("button", { name: "Propose to Operations Safe" }));
}

beforeEach(() => {
  resetAll();
  scriptedNode.reset();
  signSafeTx.mockReset().mockResolvedValue(SIGNATURE);
  useChain.setState({ token: { data: tokenFigures(false), isLoading: false, isError: false } });
});

describe("Mint form for an owner of a Safe that holds MINTER_ROLE (the wallet does not)", () => {
  it("offers 'Propose to Operations Safe' with the approvals it needs, and proposes mint(to, amount) at the Safe's next nonce", async () => {
    connect(ME);
    const { posted } = api();
    const { user } = renderScreen(mintForm());
    expect(await screen.findByRole("button", { name: "Propose to Operations Safe" })).toBeInTheDocument();
    expect(screen.getByText(/Operations Safe needs 2 of 3 owners' approvals before this runs\./)).toBeInTheDocument();

    await fillMint(user);
    await waitFor(() =>
      expect(lastToast()).toMatchObject({ title: "Proposed to Operations Safe", description: "Awaiting 1 more approval" }),
    );

    const data = encodeTokenCall("mint", [OTHER, 250n * USDX]);
    const tx = plainSafeTx(testConfig.contracts.proxy, data, "5");
    // The dry run: the Safe calling the token, not the wallet.
    expect(scriptedNode.calls).toHaveLength(1);
    expect(scriptedNode.calls[0]).toMatchObject({
      from: OPERATIONS_SAFE.toLowerCase(),
      to: testConfig.contracts.proxy.toLowerCase(),
      data,
    });
    expect(signSafeTx).toHaveBeenCalledWith(testConfig, expect.anything(), ME, OPERATIONS_SAFE, tx);
    expect(posted).toEqual([{ tx, signature: SIGNATURE }]);
    expect(run).not.toHaveBeenCalled();
    // Proposed: the fields clear, as after a sent mint.
    await waitFor(() => expect(screen.getByLabelText("Recipient Address")).toHaveValue(""));
  });

  it("stops at the dry run with the contract's words when the Safe's call would revert: nothing signed, nothing posted", async () => {
    connect(ME);
    const { posted } = api();
    scriptedNode.answer = () => revertWith("USDXPausedTransfers");
    const { user } = renderScreen(mintForm());
    await screen.findByRole("button", { name: "Propose to Operations Safe" });
    await fillMint(user);
    await waitFor(() => expect(lastToast()?.title).toBe("Could not propose to Operations Safe"));
    expect(lastToast()).toMatchObject({ variant: "destructive" });
    expect(lastToast().description).toContain("USDX is paused: no tokens can be transferred, minted or burned until it is unpaused.");
    expect(signSafeTx).not.toHaveBeenCalled();
    expect(posted).toEqual([]);
    expect(screen.getByLabelText("Recipient Address")).toHaveValue(OTHER);
  });

  it("says so when the owner rejects the signature in the wallet, and posts nothing", async () => {
    connect(ME);
    const { posted } = api();
    signSafeTx.mockRejectedValue(Object.assign(new Error("user rejected action"), { code: "ACTION_REJECTED" }));
    const { user } = renderScreen(mintForm());
    await screen.findByRole("button", { name: "Propose to Operations Safe" });
    await fillMint(user);
    await waitFor(() =>
      expect(lastToast()).toMatchObject({
        title: "Could not propose to Operations Safe",
        description: "You rejected the request in your wallet.",
      }),
    );
    expect(posted).toEqual([]);
  });

  it("shows the server's refusal in its own words", async () => {
    connect(ME);
    api(() => json({ success: false, error: "Nonce 5 is already taken by another proposal: reload and propose again." }, 409));
    const { user } = renderScreen(mintForm());
    await screen.findByRole("button", { name: "Propose to Operations Safe" });
    await fillMint(user);
    await waitFor(() =>
      expect(lastToast()).toMatchObject({
        title: "Could not propose to Operations Safe",
        description: "Nonce 5 is already taken by another proposal: reload and propose again.",
        variant: "destructive",
      }),
    );
  });
});

describe("Mint form for a wallet that holds MINTER_ROLE itself", () => {
  it("is unchanged: 'Mint' through the runner, and the Safes are not asked for", async () => {
    connect(ME, "MINTER_ROLE");
    const { fetchMock } = api();
    const { user } = renderScreen(mintForm());
    await user.type(screen.getByLabelText("Recipient Address"), OTHER);
    await user.type(screen.getByLabelText("Amount"), "1");
    await user.click(screen.getByRole("button", { name: "Mint" }));
    expect(run).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(/owners' approvals/)).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(signSafeTx).not.toHaveBeenCalled();
  });
});

describe("a wallet that neither holds the role nor owns a Safe holding it", () => {
  it("is told which role it needs", async () => {
    connect(THIRD);
    stubApi({ "/api/safes": { safes: [safeInfo({ owners: [ME, OTHER] })] } });
    renderScreen(mintForm());
    expect(await screen.findByText("You need MINTER_ROLE to mint.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Propose/ })).not.toBeInTheDocument();
  });
});

describe("Pause card for an owner of a Safe that holds PAUSE_ROLE", () => {
  it("offers 'Propose Pause' and proposes pause() to the Safe", async () => {
    connect(ME);
    const { posted } = api();
    const { user } = renderScreen(
      <RoleGate role="PAUSE_ROLE">
        <PauseCard />
      </RoleGate>,
    );
    await user.click(await screen.findByRole("button", { name: "Propose Pause" }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0].tx).toEqual(plainSafeTx(testConfig.contracts.proxy, encodeTokenCall("pause", []), "5"));
    expect(run).not.toHaveBeenCalled();
  });
});
