import { describe, it, expect, beforeEach, vi } from "vitest";
import { act, screen, waitFor, within } from "@testing-library/react";
import {
  account,
  ALICE,
  callsTo,
  connect,
  ERIN,
  fakeBank,
  lastToast,
  MINT_TX,
  renderBankPage,
  resetAll,
  wallet,
  type FakeBank,
} from "./testUtils";
beforeEach(resetAll);

async function openDeposit() {
  const view = renderBankPage();
  await view.user.click(screen.getByRole("tab", { name: "Deposit USD" }));
  return view;
}

type User = Awaited<ReturnType<typeof openDeposit>>["user"];

async function chooseAccount(user: User, name: RegExp) {
  await user.click(await screen.findByLabelText("From bank account"));
  await user.click(await screen.findByRole("option", { name }));
}

/** Moves the server's only deposit along, as its worker would. */
function advanceDeposit(bank: FakeBank, change: Partial<FakeBank["deposits"][number]>) {
  bank.deposits = bank.deposits.map((d) => ({ ...d, ...change }));
}

describe("Deposit USD", () => {
  it("shows a spinner while the accounts load", async () => {
    const bank = fakeBank();
    bank.hang.add("GET /api/bank/accounts");
    await openDeposit();
    expect(screen.getByRole("status", { name: "Loading your accounts and wallets" })).toBeInTheDocument();
  });

  it("asks for a bank account first when there is none", async () => {
    fakeBank({ wallets: [wallet()] });
    const { user } = await openDeposit();
    expect(await screen.findByText("Add a bank account first")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Go to My Bank Accounts" }));
    expect(screen.getByRole("tab", { name: "My Bank Accounts" })).toHaveAttribute("aria-selected", "true");
  });

  it("shows a failed read in the server's words", async () => {
    const bank = fakeBank();
    bank.fail["GET /api/bank/wallets"] = { status: 500, error: "The database is not answering." };
    await openDeposit();
    expect(await screen.findByText("Could not load your wallets")).toBeInTheDocument();
    expect(screen.getByText("The database is not answering.")).toBeInTheDocument();
  });

  it("offers only verified accounts; a pending one shows disabled with '(verifying)'", async () => {
    fakeBank({ accounts: [account(), account({ id: 2, name: "Rainy Day", lastFour: "1111", status: "pending" })], wallets: [wallet()] });
    const { user } = await openDeposit();
    await user.click(await screen.findByLabelText("From bank account"));
    expect(await screen.findByRole("option", { name: "Everyday Checking ••••6789" })).not.toHaveAttribute("aria-disabled");
    expect(screen.getByRole("option", { name: "Rainy Day ••••1111 (verifying)" })).toHaveAttribute("aria-disabled", "true");
  });

  it("refuses a deposit without an account or with an amount of 0 ('Invalid Deposit') and sends nothing", async () => {
    const bank = fakeBank({ accounts: [account()], wallets: [wallet()] });
    const { user } = await openDeposit();
    await user.type(await screen.findByLabelText("Amount (USD)"), "25");
    await user.click(screen.getByRole("button", { name: "Deposit USD" }));
    expect(lastToast()).toMatchObject({
      title: "Invalid Deposit",
      description: "Please choose the bank account to deposit from.",
      variant: "destructive",
    });
    expect(screen.getByRole("alert")).toHaveTextContent("Please choose the bank account to deposit from.");

    await chooseAccount(user, /Everyday Checking/);
    await user.clear(screen.getByLabelText("Amount (USD)"));
    await user.type(screen.getByLabelText("Amount (USD)"), "0");
    await user.click(screen.getByRole("button", { name: "Deposit USD" }));
    expect(lastToast()).toMatchObject({ title: "Invalid Deposit", description: "Please enter an amount greater than 0." });
    expect(screen.getByRole("alert")).toHaveTextContent("Please enter an amount greater than 0.");

    await user.clear(screen.getByLabelText("Amount (USD)"));
    await user.type(screen.getByLabelText("Amount (USD)"), "1.005");
    await user.click(screen.getByRole("button", { name: "Deposit USD" }));
    expect(lastToast()).toMatchObject({ title: "Invalid Deposit", description: "A US dollar amount has at most 2 decimals (cents)." });
    expect(callsTo(bank, "/api/bank/deposits", "POST")).toBe(0);
  });

  it("summarises the fee, the rate and what arrives, from the server's terms", async () => {
    fakeBank({ accounts: [account()], wallets: [wallet()] });
    const { user } = await openDeposit();
    await user.type(await screen.findByLabelText("Amount (USD)"), "1250.5");
    const summary = screen.getByLabelText("Deposit summary");
    expect(summary).toHaveTextContent("Deposit amount$1,250.50");
    expect(summary).toHaveTextContent("Fee$0.00");
    expect(summary).toHaveTextContent("Rate1 USD = 1 USDX");
    expect(screen.getByTestId("you-receive")).toHaveTextContent("1,250.50 USDX");
  });

  it("sends to the connected wallet when it is listed, else the primary, and offers to add an unlisted connected wallet", async () => {
    connect(ALICE);
    const bank = fakeBank({
      accounts: [account()],
      wallets: [wallet(), wallet({ id: 2, name: "Alice", address: ALICE, isPrimary: false })],
    });
    const { user } = await openDeposit();
    expect(await screen.findByLabelText("To wallet")).toHaveTextContent("Alice · 0x14dC...9955 (connected)");

    connect("0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f");
    expect(await screen.findByLabelText("To wallet")).toHaveTextContent("Main wallet · 0x71bE...5788 (primary)");
    await user.click(screen.getByRole("button", { name: "Add connected wallet" }));
    expect(bank.calls.find((c) => c.method === "POST")?.body).toMatchObject({ address: "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f" });
    expect(await screen.findByLabelText("To wallet")).toHaveTextContent("(connected)");
  });

  it("follows a deposit from pending through processing to 'Deposit Successful!', then refreshes the chain reads", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    connect(ERIN);
    const bank = fakeBank({ accounts: [account()], wallets: [wallet()] });
    const { user, queryClient } = await openDeposit();
    const invalidate = vi.spyOn(queryClient, "invalidateQueries");
    await chooseAccount(user, /Everyday Checking/);
    await user.type(screen.getByLabelText("Amount (USD)"), "25");
    await user.click(screen.getByRole("button", { name: "Deposit USD" }));

    expect(bank.calls.find((c) => c.method === "POST")?.body).toEqual({ bankAccountId: 1, amount: "25", walletId: 1 });
    expect(lastToast()).toMatchObject({
      title: "Deposit Requested",
      description: "$25.00 from Everyday Checking (••••6789): 25.00 USDX to 0x71bE...5788 in about 8 seconds.",
    });
    const progress = screen.getByRole("list", { name: "Deposit progress" });
    expect(
      within(progress)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringContaining("Requested (done)"),
      expect.stringContaining("Processing (not yet)"),
      expect.stringContaining("Completed (not yet)"),
    ]);

    const id = bank.deposits[0].id;
    advanceDeposit(bank, { status: "processing" });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(await within(progress).findByText(/in progress/)).toBeInTheDocument();
    expect(callsTo(bank, `/api/bank/deposits/${id}`)).toBe(1);
    expect(invalidate).not.toHaveBeenCalledWith({ queryKey: ["chain"] });

    advanceDeposit(bank, { status: "completed", txHash: MINT_TX, completedAt: new Date().toISOString() });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    const dialog = await screen.findByRole("dialog", { name: "Deposit Successful!" });
    expect(dialog).toHaveTextContent("25.00 USDX");
    expect(dialog).toHaveTextContent(ERIN);
    expect(within(dialog).getByRole("link", { name: `Mint transaction ${MINT_TX}` })).toHaveAttribute("href", `/tx/${MINT_TX}`);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ["chain"] });

    // Done: past the one refresh once the indexer has caught up, the poll has stopped.
    await act(() => vi.advanceTimersByTimeAsync(3000));
    const polls = callsTo(bank, `/api/bank/deposits/${id}`);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(callsTo(bank, `/api/bank/deposits/${id}`)).toBe(polls);
    await user.click(within(dialog).getByRole("button", { name: "Done" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(within(progress).getAllByRole("listitem")[2]).toHaveTextContent("Completed (done)");
  });

  it("keeps following the deposit while another tab is open", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const bank = fakeBank({ accounts: [account()], wallets: [wallet()] });
    const { user } = await openDeposit();
    await chooseAccount(user, /Everyday Checking/);
    await user.type(screen.getByLabelText("Amount (USD)"), "25");
    await user.click(screen.getByRole("button", { name: "Deposit USD" }));
    await user.click(screen.getByRole("tab", { name: "My Wallets" }));
    advanceDeposit(bank, { status: "completed", txHash: MINT_TX });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(await screen.findByRole("dialog", { name: "Deposit Successful!" })).toBeInTheDocument();
  });

  it("says 'Deposit Failed' with the server's reason when the mint fails", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const bank = fakeBank({ accounts: [account()], wallets: [wallet()] });
    const { user } = await openDeposit();
    await chooseAccount(user, /Everyday Checking/);
    await user.type(screen.getByLabelText("Amount (USD)"), "25");
    await user.click(screen.getByRole("button", { name: "Deposit USD" }));
    advanceDeposit(bank, { status: "failed", error: "The minter account has no ETH left to pay for gas." });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() => expect(lastToast()?.title).toBe("Deposit Failed"));
    expect(within(screen.getByRole("list", { name: "Deposit progress" })).getAllByRole("listitem")[2]).toHaveTextContent("Failed (failed)");
    expect(lastToast()).toMatchObject({
      title: "Deposit Failed",
      description: "The minter account has no ETH left to pay for gas.",
      variant: "destructive",
    });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("says 'Deposit Failed' with the server's sentence when it refuses the request", async () => {
    const bank = fakeBank({ accounts: [account()], wallets: [wallet()] });
    bank.fail["POST /api/bank/deposits"] = {
      status: 400,
      error: "Invalid Deposit: the bank account 'Everyday Checking' is not verified yet.",
    };
    const { user } = await openDeposit();
    await chooseAccount(user, /Everyday Checking/);
    await user.type(screen.getByLabelText("Amount (USD)"), "25");
    await user.click(screen.getByRole("button", { name: "Deposit USD" }));
    expect(lastToast()).toMatchObject({
      title: "Deposit Failed",
      description: "Invalid Deposit: the bank account 'Everyday Checking' is not verified yet.",
      variant: "destructive",
    });
    expect(screen.getByRole("alert")).toHaveTextContent("not verified yet");
    expect(screen.queryByRole("list", { name: "Deposit progress" })).not.toBeInTheDocument();
  });
});
