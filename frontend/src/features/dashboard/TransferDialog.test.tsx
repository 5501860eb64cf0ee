import { act, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useToasts } from "@/components/ui/toast";
import { useAccountFigures, useMyRoles, useTokenFigures } from "@/lib/chain/queries";
import type { TxOutcome } from "@/lib/tx/runner";
import { initialWalletState, useWallet } from "@/lib/wallet/store";
import DashboardPage from "./pages/DashboardPage";
import {
  ACCOUNT,
  connect,
  deferred,
  failed,
  json,
  lastToast,
  ME,
  ok,
  OTHER,
  queryResult,
  renderAtHome,
  rolesResult,
  sentBy,
  stubApi,
  TOKEN,
} from "./testUtils";

const { run } = vi.hoisted(() => ({ run: vi.fn() }));
vi.mock("@/lib/tx/runner", () => ({ useTransactor: () => run }));
vi.mock("@/lib/chain/queries", async () => (await import("./testUtils")).chainQueriesMock());

beforeEach(() => {
  useToasts.setState({ toasts: [] });
  useWallet.setState({ ...initialWalletState });
  connect();
  run.mockReset().mockResolvedValue(ok);
  stubApi({ "/api/": () => json({ items: [], points: [], nextCursor: null }) });
  vi.mocked(useTokenFigures).mockReturnValue(queryResult({ data: TOKEN }));
  vi.mocked(useAccountFigures).mockReturnValue(queryResult({ data: ACCOUNT }));
  vi.mocked(useMyRoles).mockReturnValue(rolesResult(ME, {}));
});

async function openTransfer() {
  const view = renderAtHome(<DashboardPage />);
  await view.user.click(
    within(screen.getByRole("heading", { name: "Quick Actions" }).closest("div.rounded-lg")!).getByRole("button", { name: "Transfer" }),
  );
  const dialog = await screen.findByRole("dialog", { name: "Transfer USDX" });
  return { ...view, dialog };
}

const recipient = () => screen.getByLabelText("Recipient Address");
const amount = () => screen.getByLabelText("Amount (USDX)");

describe("Transfer USDX dialog", () => {
  it("has the spec's fields, the available balance, Cancel and Transfer", async () => {
    const { dialog } = await openTransfer();
    expect(recipient()).toHaveAttribute("placeholder", "0x...");
    expect(amount()).toHaveAttribute("type", "number");
    expect(amount()).toHaveAttribute("min", "0");
    expect(amount()).toHaveAttribute("step", "0.01");
    expect(within(dialog).getByText("Available: 1,234.56 USDX")).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toBeEnabled();
    expect(within(dialog).getByRole("button", { name: "Transfer" })).toBeEnabled();
  });

  it("Max fills the whole balance exactly, all 18 decimals", async () => {
    const { user, dialog } = await openTransfer();
    await user.click(within(dialog).getByRole("button", { name: "Max" }));
    // The field's text, not toHaveValue: a number input's value as a float would hide the last digits.
    expect((amount() as HTMLInputElement).value).toBe("1234.567890123456789012");
  });

  it("checks the recipient first: 'Invalid address' / 'Please enter a valid Ethereum address'", async () => {
    const { user, dialog } = await openTransfer();
    await user.type(recipient(), "0x1234");
    await user.type(amount(), "-5");
    await user.click(within(dialog).getByRole("button", { name: "Transfer" }));
    expect(lastToast()).toMatchObject({
      title: "Invalid address",
      description: "Please enter a valid Ethereum address",
      variant: "destructive",
    });
    expect(within(dialog).getByRole("alert")).toHaveTextContent("Please enter a valid Ethereum address");
    expect(recipient()).toHaveAttribute("aria-invalid", "true");
    expect(run).not.toHaveBeenCalled();
  });

  it("then the amount: 'Invalid amount' / 'Please enter a valid amount greater than 0'", async () => {
    const { user, dialog } = await openTransfer();
    await user.type(recipient(), OTHER);
    await user.type(amount(), "0");
    await user.click(within(dialog).getByRole("button", { name: "Transfer" }));
    expect(lastToast()).toMatchObject({ title: "Invalid amount", description: "Please enter a valid amount greater than 0" });
    expect(within(dialog).getByRole("alert")).toHaveTextContent("Please enter a valid amount greater than 0");
    expect(run).not.toHaveBeenCalled();
  });

  it("then the balance: 'Insufficient balance' / 'You only have {balance} USDX available'", async () => {
    const { user, dialog } = await openTransfer();
    await user.type(recipient(), OTHER);
    await user.type(amount(), "1234.567890123456789013"); // one base unit too many
    await user.click(within(dialog).getByRole("button", { name: "Transfer" }));
    expect(lastToast()).toMatchObject({ title: "Insufficient balance", description: "You only have 1,234.56 USDX available" });
    expect(run).not.toHaveBeenCalled();
  });

  it("refuses with 'Wallet not connected' when the wallet went away, before any other check", async () => {
    const { user, dialog } = await openTransfer();
    act(() => useWallet.setState({ ...initialWalletState }));
    await user.click(within(dialog).getByRole("button", { name: "Transfer" }));
    expect(lastToast()).toMatchObject({ title: "Wallet not connected", description: "Please connect your wallet to transfer tokens" });
    expect(run).not.toHaveBeenCalled();
  });

  it("runs transferCall's request with the exact bigint, says 'Processing...', then closes and clears", async () => {
    const pending = deferred<TxOutcome>();
    run.mockReturnValue(pending.promise);
    const { user, dialog } = await openTransfer();
    await user.type(recipient(), OTHER.toLowerCase());
    await user.click(within(dialog).getByRole("button", { name: "Max" }));
    await user.click(within(dialog).getByRole("button", { name: "Transfer" }));

    expect(within(dialog).getByRole("button", { name: "Processing..." })).toBeDisabled();
    expect(run).toHaveBeenCalledTimes(1);
    const request = run.mock.calls[0][0];
    expect(request.success).toEqual({ title: "Transfer successful", description: `1234.567890123456789012 USDX transferred to ${OTHER}` });
    expect((await sentBy(request)).transfer).toHaveBeenCalledWith(OTHER, 1_234_567_890_123_456_789_012n);

    await act(async () => pending.resolve(ok));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Transfer USDX" })).not.toBeInTheDocument());
    await user.click(
      within(screen.getByRole("heading", { name: "Quick Actions" }).closest("div.rounded-lg")!).getByRole("button", { name: "Transfer" }),
    );
    expect(recipient()).toHaveValue("");
  });

  it("stays open with the values when the transaction fails", async () => {
    run.mockResolvedValue(failed);
    const { user, dialog } = await openTransfer();
    await user.type(recipient(), OTHER);
    await user.type(amount(), "12.5");
    await user.click(within(dialog).getByRole("button", { name: "Transfer" }));
    await waitFor(() => expect(within(dialog).getByRole("button", { name: "Transfer" })).toBeEnabled());
    expect(screen.getByRole("dialog", { name: "Transfer USDX" })).toBeInTheDocument();
    expect(recipient()).toHaveValue(OTHER);
    expect((await sentBy(run.mock.calls[0][0])).transfer).toHaveBeenCalledWith(OTHER, 12_500_000_000_000_000_000n);
  });

  it("Cancel closes the dialog without a transaction", async () => {
    const { user, dialog } = await openTransfer();
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Transfer USDX" })).not.toBeInTheDocument());
    expect(run).not.toHaveBeenCalled();
  });
});
