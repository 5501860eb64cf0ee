import { describe, it, expect, vi, beforeEach } from "vitest";
import { screen, within, waitFor } from "@testing-library/react";
import { ROLES } from "@common/roles";
import { blocklistCall, burnCall, mintCall, multiplierCall, pauseCall, roleCall, transferCall } from "@/lib/tx/calls";
import type { TxRequest } from "@/lib/tx/runner";
import { AdminTransferForm } from "./components/AdminTransferForm";
import { BlocklistForm } from "./components/BlocklistForm";
import { BurnForm } from "./components/BurnForm";
import { MintForm } from "./components/MintForm";
import { MultiplierForm } from "./components/MultiplierForm";
import { PauseCard } from "./components/PauseCard";
import { RoleForm } from "./components/RoleForm";
import {
  ME,
  OTHER,
  connect,
  deferred,
  json,
  lastToast,
  renderScreen,
  resetAll,
  run,
  signInWithWallet,
  stubApi,
  tokenFigures,
  useChain,
} from "./testUtils";

vi.mock("@/lib/chain/queries", async () => (await import("./testUtils")).queriesMock);
vi.mock("@/lib/tx/runner", async () => (await import("./testUtils")).runnerMock);

const USDX = 10n ** 18n;

/** The request the runner received, and what it sends to the contract. */
function lastRequest(): TxRequest {
  expect(run).toHaveBeenCalledTimes(1);
  return run.mock.calls[0][0];
}

/** Sends the request's call through a stand-in contract and answers which method it called, with what. */
async function sentCall(request: TxRequest): Promise<[string, unknown[]]> {
  let called: [string, unknown[]] | null = null;
  const usdx = new Proxy(
    {},
    {
      get: (_t, method: string) => ({
        name: method,
        send: (...args: unknown[]) => ((called = [method, args]), Promise.resolve({ hash: "0xabc" })),
      }),
    },
  );
  await request.call({ usdx, batch: {} } as never).send();
  return called!;
}

function expectSameRequest(actual: TxRequest, expected: TxRequest) {
  expect(actual.action).toBe(expected.action);
  expect(actual.success).toEqual(expected.success);
  expect(actual.failureTitle).toBe(expected.failureTitle);
}
beforeEach(resetAll);

describe("Mint form", () => {
  it("is disabled and says why when no wallet is connected", () => {
    renderScreen(<MintForm />);
    expect(screen.getByRole("button", { name: "Mint" })).toBeDisabled();
    expect(screen.getByText(/Wallet not connected\. Please connect your wallet to mint tokens/)).toBeInTheDocument();
  });

  it("refuses an invalid address and a zero amount with the spec's messages, inline and as a toast", async () => {
    connect(ME, "MINTER_ROLE");
    const { user } = renderScreen(<MintForm />);
    await user.type(screen.getByLabelText("Recipient Address"), "0x1234");
    await user.type(screen.getByLabelText("Amount"), "0");
    await user.click(screen.getByRole("button", { name: "Mint" }));
    expect(lastToast()).toMatchObject({
      title: "Invalid address",
      description: "Please enter a valid Ethereum address",
      variant: "destructive",
    });
    const alerts = screen.getAllByRole("alert").map((a) => a.textContent);
    expect(alerts).toEqual(["Please enter a valid Ethereum address", "Please enter a valid amount greater than 0"]);
    expect(run).not.toHaveBeenCalled();
  });

  it("runs mint(to, amount) for the typed address and exact amount, shows Processing..., then clears the fields", async () => {
    connect(ME, "MINTER_ROLE");
    const outcome = deferred<{ ok: boolean; hash: string | null; error: string | null }>();
    run.mockReturnValueOnce(outcome.promise);
    const { user } = renderScreen(<MintForm />);
    await user.type(screen.getByLabelText("Recipient Address"), OTHER);
    await user.type(screen.getByLabelText("Amount"), "12.5");
    await user.click(screen.getByRole("button", { name: "Mint" }));

    const request = lastRequest();
    expectSameRequest(request, mintCall(OTHER, (125n * USDX) / 10n));
    expect(await sentCall(request)).toEqual(["mint", [OTHER, (125n * USDX) / 10n]]);
    expect(screen.getByRole("button", { name: "Processing..." })).toBeDisabled();

    outcome.resolve({ ok: true, hash: "0xabc", error: null });
    await waitFor(() => expect(screen.getByRole("button", { name: "Mint" })).toBeEnabled());
    expect(screen.getByLabelText("Recipient Address")).toHaveValue("");
    expect(screen.getByLabelText("Amount")).toHaveValue(null);
  });

  it("keeps the fields when the transaction fails", async () => {
    connect(ME, "MINTER_ROLE");
    run.mockResolvedValueOnce({ ok: false, hash: null, error: "reverted" });
    const { user } = renderScreen(<MintForm />);
    await user.type(screen.getByLabelText("Recipient Address"), OTHER);
    await user.type(screen.getByLabelText("Amount"), "3");
    await user.click(screen.getByRole("button", { name: "Mint" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Mint" })).toBeEnabled());
    expect(screen.getByLabelText("Recipient Address")).toHaveValue(OTHER);
  });

  it("shows the recipient's balance and blocked state once the address is valid", async () => {
    connect(ME, "MINTER_ROLE");
    useChain.setState({ accounts: { [OTHER]: { balance: 42n * USDX, shares: 42n * USDX, blocked: true, readAt: 0 } } });
    const { user } = renderScreen(<MintForm />);
    expect(screen.queryByText(/Balance:/)).not.toBeInTheDocument();
    await user.type(screen.getByLabelText("Recipient Address"), OTHER.toLowerCase());
    expect(screen.getByText("42.00 USDX")).toBeInTheDocument();
    expect(screen.getByText("Blocked")).toBeInTheDocument();
  });

  it("in the Admin Panel keeps the button disabled until both fields are filled, and names the role it needs", async () => {
    connect(ME, "DEFAULT_ADMIN_ROLE");
    const { user } = renderScreen(<MintForm adminPanel />);
    const button = screen.getByRole("button", { name: "Mint" });
    expect(button).toBeDisabled();
    expect(screen.getByText(/Requires MINTER_ROLE: your wallet does not hold it/)).toBeInTheDocument();
    await user.type(screen.getByLabelText("Recipient Address"), OTHER);
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText("Amount"), "1");
    expect(button).toBeEnabled();
  });
});

describe("Burn form", () => {
  it("asks once more, then runs burn(from, amount)", async () => {
    connect(ME, "BURNER_ROLE");
    const { user } = renderScreen(<BurnForm />);
    await user.type(screen.getByLabelText("From Address"), OTHER);
    await user.type(screen.getByLabelText("Amount"), "5");
    await user.click(screen.getByRole("button", { name: "Burn" }));

    const confirm = screen.getByRole("group", { name: "Burn 5 USDX from 0x3C44...93BC?" });
    expect(run).not.toHaveBeenCalled();
    expect(within(confirm).getByRole("button", { name: "Cancel" })).toHaveFocus();
    await user.click(within(confirm).getByRole("button", { name: "Burn tokens" }));

    const request = lastRequest();
    expectSameRequest(request, burnCall(OTHER, 5n * USDX));
    expect(await sentCall(request)).toEqual(["burn", [OTHER, 5n * USDX]]);
    await waitFor(() => expect(screen.getByLabelText("From Address")).toHaveValue(""));
  });

  it("cancelling the confirm step sends nothing and keeps the fields", async () => {
    connect(ME, "BURNER_ROLE");
    const { user } = renderScreen(<BurnForm />);
    await user.type(screen.getByLabelText("From Address"), OTHER);
    await user.type(screen.getByLabelText("Amount"), "5");
    await user.click(screen.getByRole("button", { name: "Burn" }));
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(run).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Burn" })).toBeEnabled();
    expect(screen.getByLabelText("From Address")).toHaveValue(OTHER);
  });

  it("is disabled when no wallet is connected", () => {
    renderScreen(<BurnForm />);
    expect(screen.getByRole("button", { name: "Burn" })).toBeDisabled();
    expect(screen.getByText(/Please connect your wallet to burn tokens/)).toBeInTheDocument();
  });
});

describe("Blocklist form", () => {
  it("blocking asks once more, then runs blockAccount", async () => {
    connect(ME, "BLOCKLIST_ROLE");
    const { user } = renderScreen(<BlocklistForm />);
    await user.type(screen.getByLabelText("Account Address"), OTHER);
    await user.click(screen.getByRole("button", { name: "Apply Blocklist Change" }));
    await user.click(screen.getByRole("button", { name: "Block account" }));
    const request = lastRequest();
    expectSameRequest(request, blocklistCall(OTHER, "block"));
    expect(await sentCall(request)).toEqual(["blockAccount", [OTHER]]);
  });

  it("unblocking runs unblockAccount straight away", async () => {
    connect(ME, "BLOCKLIST_ROLE");
    const { user } = renderScreen(<BlocklistForm />);
    await user.type(screen.getByLabelText("Account Address"), OTHER);
    await user.click(screen.getByRole("radio", { name: "Unblock" }));
    await user.click(screen.getByRole("button", { name: "Apply Blocklist Change" }));
    const request = lastRequest();
    expectSameRequest(request, blocklistCall(OTHER, "unblock"));
    expect(await sentCall(request)).toEqual(["unblockAccount", [OTHER]]);
  });

  it("refuses an invalid address", async () => {
    connect(ME, "BLOCKLIST_ROLE");
    const { user } = renderScreen(<BlocklistForm />);
    await user.type(screen.getByLabelText("Account Address"), "0xnothex");
    await user.click(screen.getByRole("button", { name: "Apply Blocklist Change" }));
    expect(lastToast()).toMatchObject({ title: "Invalid address", description: "Please enter a valid Ethereum address" });
    expect(screen.getByRole("alert")).toHaveTextContent("Please enter a valid Ethereum address");
    expect(run).not.toHaveBeenCalled();
  });

  it("warns that blocking an already blocked account will be refused", async () => {
    connect(ME, "BLOCKLIST_ROLE");
    useChain.setState({ accounts: { [OTHER]: { balance: 0n, shares: 0n, blocked: true, readAt: 0 } } });
    const { user } = renderScreen(<BlocklistForm />);
    await user.type(screen.getByLabelText("Account Address"), OTHER);
    expect(screen.getByText(/already blocked: the contract will refuse to block it/)).toBeInTheDocument();
  });

  it("is disabled when no wallet is connected", () => {
    renderScreen(<BlocklistForm />);
    expect(screen.getByRole("button", { name: "Apply Blocklist Change" })).toBeDisabled();
  });
});

describe("Role form", () => {
  async function chooseRole(user: ReturnType<typeof renderScreen>["user"], role: string) {
    await user.click(screen.getByRole("combobox", { name: "Role" }));
    await user.click(await screen.findByRole("option", { name: role }));
  }

  it("offers every role, the admin role included", async () => {
    connect(ME, "DEFAULT_ADMIN_ROLE");
    const { user } = renderScreen(<RoleForm />);
    await user.click(screen.getByRole("combobox", { name: "Role" }));
    const options = (await screen.findAllByRole("option")).map((o) => o.textContent);
    expect(options).toEqual([
      "MINTER_ROLE",
      "BURNER_ROLE",
      "BLOCKLIST_ROLE",
      "ORACLE_ROLE",
      "PAUSE_ROLE",
      "UPGRADE_ROLE",
      "DEFAULT_ADMIN_ROLE",
    ]);
  });

  it("grants the chosen role with grantRole(hash, account)", async () => {
    connect(ME, "DEFAULT_ADMIN_ROLE");
    const { user } = renderScreen(<RoleForm />);
    await user.type(screen.getByLabelText("Account Address"), OTHER);
    await chooseRole(user, "ORACLE_ROLE");
    await user.click(screen.getByRole("button", { name: "Apply Role Change" }));
    const request = lastRequest();
    expectSameRequest(request, roleCall("ORACLE_ROLE", OTHER, "grant"));
    expect(await sentCall(request)).toEqual(["grantRole", [ROLES.ORACLE_ROLE, OTHER]]);
    await waitFor(() => expect(screen.getByLabelText("Account Address")).toHaveValue(""));
  });

  it("revokes with revokeRole", async () => {
    connect(ME, "DEFAULT_ADMIN_ROLE");
    const { user } = renderScreen(<RoleForm />);
    await user.type(screen.getByLabelText("Account Address"), OTHER);
    await chooseRole(user, "BURNER_ROLE");
    await user.click(screen.getByRole("radio", { name: "Revoke" }));
    await user.click(screen.getByRole("button", { name: "Apply Role Change" }));
    expect(await sentCall(lastRequest())).toEqual(["revokeRole", [ROLES.BURNER_ROLE, OTHER]]);
    expectSameRequest(lastRequest(), roleCall("BURNER_ROLE", OTHER, "revoke"));
  });

  it("asks once more before revoking DEFAULT_ADMIN_ROLE from your own wallet", async () => {
    connect(ME, "DEFAULT_ADMIN_ROLE");
    const { user } = renderScreen(<RoleForm />);
    await user.type(screen.getByLabelText("Account Address"), ME.toLowerCase());
    await chooseRole(user, "DEFAULT_ADMIN_ROLE");
    await user.click(screen.getByRole("radio", { name: "Revoke" }));
    await user.click(screen.getByRole("button", { name: "Apply Role Change" }));
    expect(run).not.toHaveBeenCalled();
    expect(screen.getByText(/Revoke DEFAULT_ADMIN_ROLE from your own wallet/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Revoke my admin role" }));
    expectSameRequest(lastRequest(), roleCall("DEFAULT_ADMIN_ROLE", ME, "revoke"));
  });

  it("refuses an invalid address and a missing role", async () => {
    connect(ME, "DEFAULT_ADMIN_ROLE");
    const { user } = renderScreen(<RoleForm />);
    await user.type(screen.getByLabelText("Account Address"), "0x12");
    await user.click(screen.getByRole("button", { name: "Apply Role Change" }));
    expect(lastToast()).toMatchObject({ title: "Invalid address" });
    expect(screen.getAllByRole("alert").map((a) => a.textContent)).toEqual([
      "Please enter a valid Ethereum address",
      "Please choose a role",
    ]);
    expect(run).not.toHaveBeenCalled();
  });

  it("shows the roles the account already holds", async () => {
    connect(ME, "DEFAULT_ADMIN_ROLE");
    useChain.setState((s) => ({ roles: { ...s.roles, [OTHER]: { ...s.roles[ME], DEFAULT_ADMIN_ROLE: false, MINTER_ROLE: true } } }));
    const { user } = renderScreen(<RoleForm />);
    await user.type(screen.getByLabelText("Account Address"), OTHER);
    expect(screen.getByText("MINTER_ROLE", { selector: "span" })).toBeInTheDocument();
    await chooseRole(user, "MINTER_ROLE");
    expect(screen.getByText(/already holds MINTER_ROLE/)).toBeInTheDocument();
  });

  it("in the Admin Panel waits for the account and the role", async () => {
    connect(ME, "DEFAULT_ADMIN_ROLE");
    const { user } = renderScreen(<RoleForm adminPanel />);
    const button = screen.getByRole("button", { name: "Apply Role Change" });
    await user.type(screen.getByLabelText("Account Address"), OTHER);
    expect(button).toBeDisabled();
    await chooseRole(user, "PAUSE_ROLE");
    expect(button).toBeEnabled();
  });

  it("is disabled when no wallet is connected", () => {
    renderScreen(<RoleForm />);
    expect(screen.getByRole("button", { name: "Apply Role Change" })).toBeDisabled();
    expect(screen.getByText(/Please connect your wallet to manage roles/)).toBeInTheDocument();
  });
});

describe("Pause card", () => {
  it("while active: Pause enabled, Unpause disabled, status Active", () => {
    connect(ME, "PAUSE_ROLE");
    useChain.setState({ token: { data: tokenFigures(false), isLoading: false, isError: false } });
    renderScreen(<PauseCard />);
    expect(screen.getByRole("button", { name: "Pause Contract" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Unpause Contract" })).toBeDisabled();
    expect(screen.getByText("Contract status:", { exact: false }).closest("p")).toHaveTextContent("Contract status: Active");
  });

  it("while paused: Unpause enabled, Pause disabled, status Paused; Unpause runs unpause()", async () => {
    connect(ME, "PAUSE_ROLE");
    useChain.setState({ token: { data: tokenFigures(true), isLoading: false, isError: false } });
    const { user } = renderScreen(<PauseCard />);
    expect(screen.getByRole("button", { name: "Pause Contract" })).toBeDisabled();
    expect(screen.getByText("Contract status:", { exact: false }).closest("p")).toHaveTextContent("Contract status: Paused");
    await user.click(screen.getByRole("button", { name: "Unpause Contract" }));
    expectSameRequest(lastRequest(), pauseCall("unpause"));
    expect(await sentCall(lastRequest())).toEqual(["unpause", []]);
  });

  it("disables both while the status loads, while busy, and with no wallet", async () => {
    useChain.setState({ token: { isLoading: true, isError: false } });
    connect(ME, "PAUSE_ROLE");
    const view = renderScreen(<PauseCard />);
    expect(screen.getByRole("button", { name: "Pause Contract" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Unpause Contract" })).toBeDisabled();
    view.unmount();

    useChain.setState({ token: { data: tokenFigures(false), isLoading: false, isError: false } });
    const outcome = deferred<{ ok: boolean; hash: string | null; error: string | null }>();
    run.mockReturnValueOnce(outcome.promise);
    const { user, unmount } = renderScreen(<PauseCard />);
    await user.click(screen.getByRole("button", { name: "Pause Contract" }));
    expectSameRequest(lastRequest(), pauseCall("pause"));
    expect(screen.getByRole("button", { name: "Processing..." })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Unpause Contract" })).toBeDisabled();
    outcome.resolve({ ok: true, hash: "0x1", error: null });
    await waitFor(() => expect(screen.getByRole("button", { name: "Pause Contract" })).toBeEnabled());
    unmount();

    resetAll();
    useChain.setState({ token: { data: tokenFigures(false), isLoading: false, isError: false } });
    renderScreen(<PauseCard />);
    expect(screen.getByRole("button", { name: "Pause Contract" })).toBeDisabled();
  });
});

describe("Admin Panel transfer form", () => {
  it("refuses more than the admin's balance with the spec's message", async () => {
    connect(ME, "DEFAULT_ADMIN_ROLE");
    useChain.setState({ accounts: { [ME]: { balance: 10n * USDX, shares: 10n * USDX, blocked: false, readAt: 0 } } });
    const { user } = renderScreen(<AdminTransferForm adminPanel />);
    expect(screen.getByText("Available: 10.00 USDX")).toBeInTheDocument();
    await user.type(screen.getByLabelText("Recipient Address"), OTHER);
    await user.type(screen.getByLabelText("Amount"), "11");
    await user.click(screen.getByRole("button", { name: "Transfer" }));
    expect(lastToast()).toMatchObject({ title: "Insufficient balance", description: "You only have 10.00 USDX available" });
    expect(run).not.toHaveBeenCalled();
  });

  it("runs transfer(to, amount)", async () => {
    connect(ME, "DEFAULT_ADMIN_ROLE");
    useChain.setState({ accounts: { [ME]: { balance: 10n * USDX, shares: 10n * USDX, blocked: false, readAt: 0 } } });
    const { user } = renderScreen(<AdminTransferForm adminPanel />);
    await user.type(screen.getByLabelText("Recipient Address"), OTHER);
    await user.type(screen.getByLabelText("Amount"), "2.25");
    await user.click(screen.getByRole("button", { name: "Transfer" }));
    expectSameRequest(lastRequest(), transferCall(OTHER, (225n * USDX) / 100n));
    expect(await sentCall(lastRequest())).toEqual(["transfer", [OTHER, (225n * USDX) / 100n]]);
  });
});

describe("Admin Panel reward multiplier form", () => {
  it("shows the placeholder 1.0 and the 18-decimal hint", () => {
    connect(ME, "DEFAULT_ADMIN_ROLE", "ORACLE_ROLE");
    renderScreen(<MultiplierForm />);
    expect(screen.getByLabelText("Reward Multiplier")).toHaveAttribute("placeholder", "1.0");
    expect(screen.getByText(/Values are scaled in 18 decimals \(1\.0 = 1 \* 10\^18\)/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Update Reward Multiplier" })).toBeDisabled();
  });

  it("refuses a value that is not positive", async () => {
    connect(ME, "ORACLE_ROLE");
    const { user } = renderScreen(<MultiplierForm />);
    await user.type(screen.getByLabelText("Reward Multiplier"), "0");
    await user.click(screen.getByRole("button", { name: "Update Reward Multiplier" }));
    expect(lastToast()).toMatchObject({ title: "Invalid value", description: "Please enter a valid positive number" });
    expect(run).not.toHaveBeenCalled();
  });

  it("shows the change to every balance as it is typed; a step above 1% or a decrease needs the value typed again, exactly", async () => {
    connect(ME, "ORACLE_ROLE");
    useChain.setState({
      token: { data: { ...tokenFigures(false), rewardMultiplier: (102n * USDX) / 100n }, isLoading: false, isError: false },
    });
    const { user } = renderScreen(<MultiplierForm />);
    const submit = () => screen.getByRole("button", { name: "Update Reward Multiplier" });
    await user.type(screen.getByLabelText("Reward Multiplier"), "1.025");
    expect(screen.getByTestId("multiplier-change")).toHaveTextContent("+0.4902% to every balance");
    expect(screen.queryByLabelText("Type the new multiplier again to confirm")).toBeNull();
    expect(submit()).toBeEnabled();

    await user.clear(screen.getByLabelText("Reward Multiplier"));
    await user.type(screen.getByLabelText("Reward Multiplier"), "1.01");
    expect(screen.getByTestId("multiplier-change")).toHaveTextContent("\u22120.9804% to every balance");
    expect(screen.getByRole("alert")).toHaveTextContent("This lowers the multiplier, so every holder's balance goes down (\u22120.9804%).");
    expect(submit()).toBeDisabled();
    await user.type(screen.getByLabelText("Type the new multiplier again to confirm"), "1.010");
    expect(submit()).toBeDisabled();
    await user.clear(screen.getByLabelText("Type the new multiplier again to confirm"));
    await user.type(screen.getByLabelText("Type the new multiplier again to confirm"), "1.01");
    expect(submit()).toBeEnabled();
    await user.click(submit());
    await waitFor(() => expect(run).toHaveBeenCalled());
    expectSameRequest(lastRequest(), multiplierCall("set", (101n * USDX) / 100n, "\u22120.9804% to every balance"));
  });

  it("a multiplier not read yet cannot be weighed: the value is typed again", async () => {
    connect(ME, "ORACLE_ROLE");
    const { user } = renderScreen(<MultiplierForm />);
    await user.type(screen.getByLabelText("Reward Multiplier"), "1.01");
    expect(screen.getByRole("alert")).toHaveTextContent(
      "The current multiplier has not been read, so the change to every balance cannot be shown.",
    );
    expect(screen.getByRole("button", { name: "Update Reward Multiplier" })).toBeDisabled();
  });

  it("posts the audit request first (from the sending wallet's session), then runs setRewardMultiplier with the value scaled by 10^18", async () => {
    connect(ME, "ORACLE_ROLE");
    signInWithWallet(ME);
    useChain.setState({ token: { data: tokenFigures(false), isLoading: false, isError: false } });
    const fetchMock = stubApi({ "/api/reward-multiplier": () => json({ error: "Sign in first" }, 401) });
    const { user } = renderScreen(<MultiplierForm />);
    await user.type(screen.getByLabelText("Reward Multiplier"), "1.05");
    await user.type(screen.getByLabelText("Type the new multiplier again to confirm"), "1.05");
    await user.click(screen.getByRole("button", { name: "Update Reward Multiplier" }));
    await waitFor(() => expect(run).toHaveBeenCalled());

    const [path, init] = fetchMock.mock.calls[0];
    expect(path).toBe("/api/reward-multiplier");
    expect(init?.method).toBe("POST");
    expect(JSON.parse(String(init?.body))).toEqual({ value: "1.05", operation: "set" });
    expect(fetchMock.mock.invocationCallOrder[0]).toBeLessThan(run.mock.invocationCallOrder[0]);

    const request = lastRequest();
    expectSameRequest(request, multiplierCall("set", (105n * USDX) / 100n, "+5.00% to every balance"));
    expect(await sentCall(request)).toEqual(["setRewardMultiplier", [(105n * USDX) / 100n]]);
    await waitFor(() => expect(screen.getByLabelText("Reward Multiplier")).toHaveValue(null));
  });
});
