import { describe, it, expect, beforeEach } from "vitest";
import { screen, within } from "@testing-library/react";
import { ALICE, callsTo, connect, ERIN, fakeBank, lastToast, renderBankPage, resetAll, wallet } from "./testUtils";
beforeEach(resetAll);

async function openWallets() {
  const view = renderBankPage();
  await view.user.click(screen.getByRole("tab", { name: "My Wallets" }));
  return view;
}

async function addWallet(user: Awaited<ReturnType<typeof openWallets>>["user"], name: string, address: string) {
  await user.click(await screen.findByRole("button", { name: "Add Wallet" }));
  const dialog = screen.getByRole("dialog", { name: "Add Wallet" });
  if (name) await user.type(within(dialog).getByLabelText("Wallet Name"), name);
  if (address) await user.type(within(dialog).getByLabelText("Wallet Address"), address);
  await user.click(within(dialog).getByRole("button", { name: "Add Wallet" }));
  return dialog;
}

describe("My Wallets", () => {
  it("shows a spinner while loading, then the empty state", async () => {
    const bank = fakeBank();
    bank.hang.add("GET /api/bank/wallets");
    const { unmount } = await openWallets();
    expect(screen.getByRole("status", { name: "Loading wallets" })).toBeInTheDocument();
    unmount();
    bank.hang.clear();
    await openWallets();
    expect(await screen.findByText("No wallets yet")).toBeInTheDocument();
  });

  it("shows a failed read in the server's words", async () => {
    const bank = fakeBank();
    bank.fail["GET /api/bank/wallets"] = { status: 500, error: "The database is not answering." };
    await openWallets();
    expect(await screen.findByText("Could not load your wallets")).toBeInTheDocument();
    expect(screen.getByText("The database is not answering.")).toBeInTheDocument();
  });

  it("lists name, address, primary badge and the balance the server read", async () => {
    fakeBank({
      wallets: [
        wallet(),
        wallet({ id: 2, name: "Cold storage", address: ALICE, isPrimary: false, balanceRaw: (1234567n * 10n ** 16n).toString() }),
      ],
    });
    await openWallets();
    const [first, second] = within(await screen.findByRole("list", { name: "Wallets" })).getAllByRole("listitem");
    expect(first).toHaveTextContent("Main wallet");
    expect(within(first).getByText("Primary")).toBeInTheDocument();
    expect(within(first).getByText(ERIN)).toBeInTheDocument();
    expect(first).toHaveTextContent("10.00 USDX");
    expect(second).toHaveTextContent("Cold storage");
    expect(within(second).queryByText("Primary")).not.toBeInTheDocument();
    expect(second).toHaveTextContent("12,345.67 USDX");
  });

  it("refuses a wallet without a name or address with 'Missing Information'", async () => {
    const bank = fakeBank({ wallets: [wallet()] });
    const { user } = await openWallets();
    const dialog = await addWallet(user, "", ALICE);
    expect(lastToast()).toMatchObject({
      title: "Missing Information",
      description: "Please provide both the wallet name and address.",
      variant: "destructive",
    });
    expect(within(dialog).getByRole("alert")).toHaveTextContent("Please provide both the wallet name and address.");
    expect(callsTo(bank, "/api/bank/wallets", "POST")).toBe(0);
  });

  it("refuses a malformed address with 'Invalid Address'", async () => {
    const bank = fakeBank({ wallets: [wallet()] });
    const { user } = await openWallets();
    const dialog = await addWallet(user, "Savings", "0x1234");
    expect(lastToast()).toMatchObject({ title: "Invalid Address", variant: "destructive" });
    expect(within(dialog).getByRole("alert")).toHaveTextContent("Please enter a valid Ethereum address: 0x followed by 40 hex characters.");
    expect(callsTo(bank, "/api/bank/wallets", "POST")).toBe(0);
  });

  it("refuses an address already listed in another letter case with 'Duplicate Wallet'", async () => {
    const bank = fakeBank({ wallets: [wallet()] });
    const { user } = await openWallets();
    const dialog = await addWallet(user, "Again", ERIN.toLowerCase());
    expect(lastToast()).toMatchObject({
      title: "Duplicate Wallet",
      description: `${ERIN} is already in your wallets as 'Main wallet'.`,
      variant: "destructive",
    });
    expect(within(dialog).getByRole("alert")).toHaveTextContent("already in your wallets as 'Main wallet'");
    expect(callsTo(bank, "/api/bank/wallets", "POST")).toBe(0);
  });

  it("shows the server's answer when it refuses a wallet the screen let through", async () => {
    const bank = fakeBank({ wallets: [wallet()] });
    bank.fail["POST /api/bank/wallets"] = {
      status: 409,
      error: `Duplicate Wallet: ${ALICE} is already in your wallets as 'Added elsewhere'.`,
    };
    const { user } = await openWallets();
    const dialog = await addWallet(user, "Savings", ALICE);
    expect(lastToast()).toMatchObject({
      title: "Duplicate Wallet",
      description: `${ALICE} is already in your wallets as 'Added elsewhere'.`,
    });
    expect(within(dialog).getByRole("alert")).toHaveTextContent("'Added elsewhere'");
  });

  it("adds a wallet ('Wallet Added')", async () => {
    const bank = fakeBank({ wallets: [wallet()] });
    const { user } = await openWallets();
    await addWallet(user, "Savings", ALICE);
    expect(lastToast()).toMatchObject({ title: "Wallet Added" });
    expect(bank.calls.find((c) => c.method === "POST")?.body).toEqual({ name: "Savings", address: ALICE });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(await screen.findByText("Savings")).toBeInTheDocument();
  });

  it("makes another wallet primary ('Primary Wallet Updated')", async () => {
    const bank = fakeBank({ wallets: [wallet(), wallet({ id: 2, name: "Cold storage", address: ALICE, isPrimary: false })] });
    const { user } = await openWallets();
    await user.click(await screen.findByRole("button", { name: "Set as primary" }));
    expect(lastToast()).toMatchObject({ title: "Primary Wallet Updated" });
    expect(bank.calls.some((c) => c.method === "POST" && c.path === "/api/bank/wallets/2/primary")).toBe(true);
    const [first, second] = within(screen.getByRole("list", { name: "Wallets" })).getAllByRole("listitem");
    expect(within(second).getByText("Primary")).toBeInTheDocument();
    expect(within(first).queryByText("Primary")).not.toBeInTheDocument();
  });

  it("will not remove the primary wallet ('Cannot Remove Primary Wallet'), and removes another after asking ('Wallet Removed')", async () => {
    const bank = fakeBank({ wallets: [wallet(), wallet({ id: 2, name: "Cold storage", address: ALICE, isPrimary: false })] });
    const { user } = await openWallets();
    await user.click(await screen.findByRole("button", { name: "Remove Main wallet" }));
    expect(lastToast()).toMatchObject({ title: "Cannot Remove Primary Wallet", variant: "destructive" });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(callsTo(bank, "/api/bank/wallets/1", "DELETE")).toBe(0);

    await user.click(screen.getByRole("button", { name: "Remove Cold storage" }));
    await user.click(within(screen.getByRole("dialog", { name: "Remove wallet?" })).getByRole("button", { name: "Remove Wallet" }));
    expect(lastToast()).toMatchObject({ title: "Wallet Removed" });
    expect(callsTo(bank, "/api/bank/wallets/2", "DELETE")).toBe(1);
    expect(screen.queryByText("Cold storage")).not.toBeInTheDocument();
  });

  it("shows the server's refusal to remove the primary wallet", async () => {
    // The screen thought it was not primary (another tab changed it): the server's sentence is shown.
    const bank = fakeBank({ wallets: [wallet(), wallet({ id: 2, name: "Cold storage", address: ALICE, isPrimary: false })] });
    const { user } = await openWallets();
    await screen.findByText("Cold storage");
    bank.wallets = bank.wallets.map((w) => ({ ...w, isPrimary: w.id === 2 }));
    await user.click(screen.getByRole("button", { name: "Remove Cold storage" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Remove Wallet" }));
    expect(lastToast()).toMatchObject({
      title: "Cannot Remove Primary Wallet",
      description: "'Cold storage' is your primary wallet; make another wallet primary first.",
    });
  });

  it("offers to add the connected wallet in one click when it is not listed", async () => {
    connect(ERIN);
    const bank = fakeBank();
    const { user } = await openWallets();
    await user.click(await screen.findByRole("button", { name: "Add connected wallet" }));
    expect(bank.calls.find((c) => c.method === "POST")?.body).toEqual({ name: "Development wallet (erin)", address: ERIN });
    expect(lastToast()).toMatchObject({
      title: "Wallet Added",
      description: "Development wallet (erin) (0x71bE...5788) was added as your primary wallet.",
    });
    const item = within(await screen.findByRole("list", { name: "Wallets" })).getByRole("listitem");
    expect(within(item).getByText("Connected")).toBeInTheDocument();
    expect(within(item).getByText("Primary")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Add connected wallet" })).not.toBeInTheDocument();
  });
});
