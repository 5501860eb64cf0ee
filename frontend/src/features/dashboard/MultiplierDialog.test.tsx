import { act, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useToasts } from "@/components/ui/toast";
import type { TxOutcome } from "@/lib/tx/runner";
import { ProposeVia } from "@/lib/safes";
import { safeInfo } from "@/test/safes";
import { MultiplierDialog } from "./components/MultiplierDialog";
import { useSession } from "@/lib/auth/session";
import { connect, deferred, failed, json, lastToast, ok, renderAtHome, sentBy, signInWithWallet, stubApi } from "./testUtils";

const { run } = vi.hoisted(() => ({ run: vi.fn() }));
vi.mock("@/lib/tx/runner", () => ({ useTransactor: () => run }));

const CURRENT = 1_050_000_000_000_000_000n; // 1.05

let order: string[];
let fetchMock: ReturnType<typeof stubApi>;

beforeEach(() => {
  useToasts.setState({ toasts: [] });
  order = [];
  // The audit request is sent from the sending wallet's own session (issue 29, item 14).
  connect();
  signInWithWallet();
  run.mockReset().mockImplementation(async () => (order.push("run"), ok));
  fetchMock = stubApi({ "/api/reward-multiplier": () => (order.push("post"), json({ success: true, id: 1 }, 201)) });
});

function renderDialog({ connected = true, onOpenChange = vi.fn() } = {}) {
  const view = renderAtHome(<MultiplierDialog open onOpenChange={onOpenChange} connected={connected} current={CURRENT} />);
  return { ...view, dialog: screen.getByRole("dialog", { name: "Update Reward Multiplier" }), onOpenChange };
}

const field = () => screen.getByRole("spinbutton") as HTMLInputElement;
const posted = () =>
  fetchMock.mock.calls.filter(([url]) => String(url) === "/api/reward-multiplier").map(([, init]) => JSON.parse(String(init!.body)));

describe("Update Reward Multiplier dialog", () => {
  it("explains the multiplier and shows the current value", () => {
    const { dialog } = renderDialog();
    expect(within(dialog).getByText(/controls the conversion between tokens and shares/)).toHaveTextContent(/all balances/);
    expect(within(dialog).getByTestId("current-multiplier")).toHaveTextContent("1.0500x");
  });

  it("under a Safe it proposes to, reads 'Propose to Operations Safe' and says how many owners must approve", () => {
    renderAtHome(
      <ProposeVia.Provider
        value={safeInfo({ owners: ["0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"] })}
      >
        <MultiplierDialog open onOpenChange={vi.fn()} connected current={CURRENT} />
      </ProposeVia.Provider>,
    );
    expect(screen.getByRole("button", { name: "Propose to Operations Safe" })).toBeEnabled();
    expect(screen.queryByRole("button", { name: "Set Value" })).not.toBeInTheDocument();
    expect(screen.getByText(/Operations Safe needs 2 of 2 owners' approvals before this runs\./)).toBeInTheDocument();
  });

  it("starts on 'Set new value' with the current multiplier, its label, placeholder, hint and 'Set Value'", () => {
    renderDialog();
    expect(screen.getByRole("radio", { name: "Set new value" })).toBeChecked();
    expect(screen.getByLabelText("New Multiplier Value")).toBe(field());
    expect(field().value).toBe("1.05");
    expect(field()).toHaveAttribute("placeholder", "1.0");
    expect(field()).toHaveAttribute("min", "0");
    expect(field()).toHaveAttribute("step", "0.01");
    expect(screen.getByText("Sets the absolute value of the multiplier")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Set Value" })).toBeEnabled();
  });

  it("'Add to current' switches to 'Increment Amount', 0.01, its hint and 'Add Value'", async () => {
    const { user } = renderDialog();
    await user.click(screen.getByRole("radio", { name: "Add to current" }));
    expect(screen.getByLabelText("Increment Amount")).toBe(field());
    expect(field().value).toBe("0.01");
    expect(field()).toHaveAttribute("placeholder", "0.01");
    expect(screen.getByText("Adds this value to the current multiplier")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Add Value" })).toBeEnabled();
    expect(screen.queryByText("Sets the absolute value of the multiplier")).not.toBeInTheDocument();
  });

  it("shows what the change does to every balance as it is typed", async () => {
    const { user } = renderDialog();
    await user.clear(field());
    await user.type(field(), "1.0605");
    expect(screen.getByTestId("multiplier-change")).toHaveTextContent("New multiplier 1.0605x: +1.00% to every balance");
    await user.click(screen.getByRole("radio", { name: "Add to current" }));
    expect(screen.getByTestId("multiplier-change")).toHaveTextContent("New multiplier 1.0600x: +0.9524% to every balance");
    await user.click(screen.getByRole("radio", { name: "Set new value" }));
    await user.clear(field());
    await user.type(field(), "0.5");
    expect(screen.getByText(/would be refused/)).toHaveTextContent(
      "The contract only accepts a multiplier of 1.0 or more; 0.5000x would be refused.",
    );
  });

  it("a step above 1% asks for the new multiplier again: 'Set Value' stays disabled until the two match exactly", async () => {
    const { user, onOpenChange } = renderDialog();
    await user.clear(field());
    await user.type(field(), "1.1025");
    expect(screen.getByTestId("multiplier-change")).toHaveTextContent("+5.00% to every balance");
    expect(screen.getByRole("alert")).toHaveTextContent(
      "This raises every holder's balance by 5.00%, more than the 1% one change may move it without a second look.",
    );
    const again = screen.getByLabelText("Type the new multiplier again to confirm");
    expect(screen.getByRole("button", { name: "Set Value" })).toBeDisabled();
    await user.type(again, "1.10250");
    expect(screen.getByRole("button", { name: "Set Value" })).toBeDisabled();
    await user.clear(again);
    await user.type(again, "1.1025");
    expect(screen.getByRole("button", { name: "Set Value" })).toBeEnabled();
    await user.click(screen.getByRole("button", { name: "Set Value" }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    // The status modal says it too.
    expect(run.mock.calls[0][0].action).toBe("Set the reward multiplier to 1.1025 (+5.00% to every balance)");
    expect((await sentBy(run.mock.calls[0][0])).setRewardMultiplier).toHaveBeenCalledWith(1_102_500_000_000_000_000n);
  });

  it("any decrease, however small, asks for the new multiplier again", async () => {
    const { user } = renderDialog();
    await user.clear(field());
    await user.type(field(), "1.0499");
    expect(screen.getByTestId("multiplier-change")).toHaveTextContent("\u22120.0096% to every balance");
    expect(screen.getByRole("alert")).toHaveTextContent("This lowers the multiplier, so every holder's balance goes down (\u22120.0096%).");
    expect(screen.getByRole("button", { name: "Set Value" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Set Value" }));
    expect(run).not.toHaveBeenCalled();
    expect(posted()).toEqual([]);
  });

  it("an increment above the bound asks for the increment again", async () => {
    const { user } = renderDialog();
    await user.click(screen.getByRole("radio", { name: "Add to current" }));
    await user.clear(field());
    await user.type(field(), "0.02");
    expect(screen.getByLabelText("Type the increment again to confirm")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Add Value" })).toBeDisabled();
    await user.type(screen.getByLabelText("Type the increment again to confirm"), "0.02");
    expect(screen.getByRole("button", { name: "Add Value" })).toBeEnabled();
  });

  it.each(["", "0", "abc"])("refuses %j with 'Invalid value' / 'Please enter a valid positive number', sending nothing", async (input) => {
    const { user } = renderDialog();
    await user.clear(field());
    if (input) await user.type(field(), input);
    await user.click(screen.getByRole("button", { name: "Set Value" }));
    expect(lastToast()).toMatchObject({
      title: "Invalid value",
      description: "Please enter a valid positive number",
      variant: "destructive",
    });
    expect(screen.getByRole("alert")).toHaveTextContent("Please enter a valid positive number");
    expect(posted()).toEqual([]);
    expect(run).not.toHaveBeenCalled();
  });

  it("asks for a wallet first: 'Please connect your wallet to update the reward multiplier'", async () => {
    const { user } = renderDialog({ connected: false });
    await user.click(screen.getByRole("button", { name: "Set Value" }));
    expect(lastToast()).toMatchObject({
      title: "Wallet not connected",
      description: "Please connect your wallet to update the reward multiplier",
    });
    expect(posted()).toEqual([]);
    expect(run).not.toHaveBeenCalled();
  });

  it("POSTs /api/reward-multiplier before the on-chain set, then closes", async () => {
    const { user, onOpenChange } = renderDialog();
    await user.clear(field());
    await user.type(field(), "1.06");
    await user.click(screen.getByRole("button", { name: "Set Value" }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(order).toEqual(["post", "run"]);
    expect(posted()).toEqual([{ value: "1.06", operation: "set" }]);
    const request = run.mock.calls[0][0];
    expect(request.success.description).toBe("Reward multiplier has been set to 1.06");
    expect((await sentBy(request)).setRewardMultiplier).toHaveBeenCalledWith(1_060_000_000_000_000_000n);
  });

  it("adds with addRewardMultiplier and says 'Processing...' while it runs", async () => {
    const pending = deferred<TxOutcome>();
    run.mockImplementation(() => (order.push("run"), pending.promise));
    const { user, onOpenChange } = renderDialog();
    await user.click(screen.getByRole("radio", { name: "Add to current" }));
    await user.click(screen.getByRole("button", { name: "Add Value" }));
    expect(await screen.findByRole("button", { name: "Processing..." })).toBeDisabled();
    expect(posted()).toEqual([{ value: "0.01", operation: "add" }]);
    expect((await sentBy(run.mock.calls[0][0])).addRewardMultiplier).toHaveBeenCalledWith(10n ** 16n);
    await act(async () => pending.resolve(ok));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("still runs the transaction when the server refuses the request (its result is ignored)", async () => {
    stubApi({ "/api/reward-multiplier": () => (order.push("post"), json({ error: "Sign in first" }, 401)) });
    const { user } = renderDialog();
    await user.click(screen.getByRole("button", { name: "Set Value" }));
    await waitFor(() => expect(order).toEqual(["post", "run"]));
  });

  it("sends no audit request from an email session (the server records only the oracle's wallet session), and still runs", async () => {
    useSession.setState({ user: { uid: "email-user", email: "oracle@example.com", wallet: null, admin: false }, ready: true });
    const { user, onOpenChange } = renderDialog();
    await user.click(screen.getByRole("button", { name: "Set Value" }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(order).toEqual(["run"]);
    expect(posted()).toEqual([]);
  });

  it("stays open when the transaction fails", async () => {
    run.mockResolvedValue(failed);
    const { user, onOpenChange } = renderDialog();
    await user.click(screen.getByRole("button", { name: "Set Value" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Set Value" })).toBeEnabled());
    expect(onOpenChange).not.toHaveBeenCalledWith(false);
  });
});
