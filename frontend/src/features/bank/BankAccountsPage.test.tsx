import { describe, it, expect, beforeEach, vi } from "vitest";
import { act, screen, within } from "@testing-library/react";
import { testConfig } from "@/test/config";
import { account, callsTo, deposit, fakeBank, lastToast, MINT_TX, renderBankPage, resetAll } from "./testUtils";
beforeEach(resetAll);

describe("Bank Accounts & Deposits page", () => {
  it("is titled, marked as a mock and offers the four tabs", async () => {
    fakeBank();
    renderBankPage();
    expect(screen.getByRole("heading", { level: 1, name: "Bank Accounts & Deposits" })).toBeInTheDocument();
    expect(screen.getByText("Mock")).toBeInTheDocument();
    expect(screen.getByText("Simulated bank: no real money moves; deposits mint test USDX on this chain")).toBeInTheDocument();
    expect(screen.getAllByRole("tab").map((t) => t.textContent)).toEqual([
      "My Bank Accounts",
      "My Wallets",
      "Deposit USD",
      "Deposit History",
    ]);
  });

  it("says the mock bank is unavailable in the server's words when the configuration has it off (MOCK_BANK), asking only for that sentence", async () => {
    const bank = fakeBank();
    const off =
      "The mock bank is off on chain 11155111 (Sepolia): it runs on the local chain by default, and elsewhere only as a capped test faucet that the operator turns on with MOCK_BANK=faucet.";
    bank.fail["GET /api/bank/terms"] = { status: 503, error: off };
    renderBankPage(testConfig({ mockBank: false }));
    expect(await screen.findByText("The mock bank is unavailable")).toBeInTheDocument();
    expect(screen.getByText(off)).toBeInTheDocument();
    expect(screen.getByText("Simulated bank: no real money moves; deposits mint test USDX on this chain")).toBeInTheDocument();
    expect(screen.queryByRole("tab")).not.toBeInTheDocument();
    expect(bank.calls.map((c) => `${c.method} ${c.path}`)).toEqual(["GET /api/bank/terms"]);
  });

  it("says the mock bank is unavailable with the server's sentence when it answers 503 (refused on a mainnet chain id)", async () => {
    const bank = fakeBank();
    const refused =
      "The mock bank refuses to start: the node at RPC_URL reports chain 1 (Ethereum mainnet), a mainnet, and the mock bank never mints on a mainnet.";
    bank.fail["GET /api/bank/terms"] = { status: 503, error: refused };
    renderBankPage();
    expect(await screen.findByText("The mock bank is unavailable")).toBeInTheDocument();
    expect(screen.getByText(refused)).toBeInTheDocument();
    expect(screen.queryByRole("tab")).not.toBeInTheDocument();
  });
});

describe("My Bank Accounts", () => {
  it("shows a spinner while loading, then the empty state", async () => {
    const bank = fakeBank();
    bank.hang.add("GET /api/bank/accounts");
    const { unmount } = renderBankPage();
    expect(screen.getByRole("status", { name: "Loading bank accounts" })).toBeInTheDocument();
    unmount();
    bank.hang.clear();
    renderBankPage();
    expect(await screen.findByText("No bank accounts yet")).toBeInTheDocument();
  });

  it("shows a failed read in the server's words, and Retry reads again", async () => {
    const bank = fakeBank();
    bank.fail["GET /api/bank/accounts"] = { status: 500, error: "The database is not answering." };
    const { user } = renderBankPage();
    expect(await screen.findByText("Could not load your bank accounts")).toBeInTheDocument();
    expect(screen.getByText("The database is not answering.")).toBeInTheDocument();
    delete bank.fail["GET /api/bank/accounts"];
    bank.accounts = [account()];
    await user.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("Everyday Checking")).toBeInTheDocument();
  });

  it("lists each account with its type, last four digits and status", async () => {
    fakeBank({ accounts: [account(), account({ id: 2, name: "Rainy Day", type: "savings", lastFour: "1111", status: "pending" })] });
    renderBankPage();
    const list = await screen.findByRole("list", { name: "Bank accounts" });
    const [first, second] = within(list).getAllByRole("listitem");
    expect(first).toHaveTextContent("Everyday Checking");
    expect(first).toHaveTextContent("checking · ••••6789");
    expect(within(first).getByText("Verified")).toBeInTheDocument();
    expect(second).toHaveTextContent("savings · ••••1111");
    expect(within(second).getByText("Pending")).toBeInTheDocument();
  });

  it("refuses an incomplete account with 'Missing Information' and sends nothing", async () => {
    const bank = fakeBank();
    const { user } = renderBankPage();
    await user.click(await screen.findByRole("button", { name: "Add Account" }));
    const dialog = screen.getByRole("dialog", { name: "Add Bank Account" });
    await user.type(within(dialog).getByLabelText("Account Name"), "Everyday Checking");
    await user.type(within(dialog).getByLabelText("Account Number"), "123456789");
    await user.click(within(dialog).getByRole("button", { name: "Add Account" }));
    expect(lastToast()).toMatchObject({ title: "Missing Information", variant: "destructive" });
    expect(within(dialog).getByRole("alert")).toHaveTextContent(
      "Please provide the account name, type, account number and routing number.",
    );
    expect(callsTo(bank, "/api/bank/accounts", "POST")).toBe(0);
  });

  it("shows the server's sentence when it refuses the numbers", async () => {
    const bank = fakeBank();
    bank.fail["POST /api/bank/accounts"] = { status: 400, error: "Invalid Bank Account: the routing number must be exactly 9 digits." };
    const { user } = renderBankPage();
    await user.click(await screen.findByRole("button", { name: "Add Account" }));
    await fillAccount(user, { routing: "12" });
    expect(lastToast()).toMatchObject({
      title: "Invalid Bank Account",
      description: "The routing number must be exactly 9 digits.",
      variant: "destructive",
    });
    expect(screen.getByRole("dialog")).toHaveTextContent("The routing number must be exactly 9 digits.");
  });

  it("adds an account ('Account Added'), polls while it is pending, says 'Account Verified' once, then stops polling", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const bank = fakeBank();
    const { user } = renderBankPage();
    await user.click(await screen.findByRole("button", { name: "Add Account" }));
    await fillAccount(user);
    expect(lastToast()).toMatchObject({
      title: "Account Added",
      description: "Everyday Checking (••••6789) will be verified in about 5 seconds.",
    });
    expect(bank.calls.find((c) => c.method === "POST")?.body).toEqual({
      name: "Everyday Checking",
      type: "checking",
      accountNumber: "123456789",
      routingNumber: "021000021",
    });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(await screen.findByText("Pending")).toBeInTheDocument();

    // Still pending at the next look: the page keeps looking every 1.5 s.
    const before = callsTo(bank, "/api/bank/accounts");
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(callsTo(bank, "/api/bank/accounts")).toBe(before + 1);
    expect(lastToast().title).toBe("Account Added");

    bank.accounts = bank.accounts.map((a) => ({ ...a, status: "verified" }));
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(await screen.findByText("Verified")).toBeInTheDocument();
    expect(lastToast()).toMatchObject({
      title: "Account Verified",
      description: "Everyday Checking (••••6789) is verified: you can deposit from it now.",
    });

    const settled = callsTo(bank, "/api/bank/accounts");
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(callsTo(bank, "/api/bank/accounts")).toBe(settled);
  });

  it("does not announce accounts that were already verified when the page opened", async () => {
    fakeBank({ accounts: [account()] });
    renderBankPage();
    expect(await screen.findByText("Verified")).toBeInTheDocument();
    expect(lastToast()).toBeUndefined();
  });

  it("removes an account after asking", async () => {
    const bank = fakeBank({ accounts: [account()] });
    const { user } = renderBankPage();
    await user.click(await screen.findByRole("button", { name: "Remove Everyday Checking" }));
    const dialog = screen.getByRole("dialog", { name: "Remove bank account?" });
    await user.click(within(dialog).getByRole("button", { name: "Remove Account" }));
    expect(lastToast()).toMatchObject({ title: "Account Removed" });
    expect(bank.calls.some((c) => c.method === "DELETE" && c.path === "/api/bank/accounts/1")).toBe(true);
    expect(await screen.findByText("No bank accounts yet")).toBeInTheDocument();
  });
});

describe("Deposit History", () => {
  it("shows a spinner while loading and an empty state", async () => {
    const bank = fakeBank();
    bank.hang.add("GET /api/bank/deposits");
    const { user, unmount } = renderBankPage();
    await user.click(screen.getByRole("tab", { name: "Deposit History" }));
    expect(screen.getByRole("status", { name: "Loading deposits" })).toBeInTheDocument();
    unmount();
    bank.hang.clear();
    const again = renderBankPage();
    await again.user.click(screen.getByRole("tab", { name: "Deposit History" }));
    expect(await screen.findByText("No deposits yet")).toBeInTheDocument();
  });

  it("shows a failed read with the server's sentence", async () => {
    const bank = fakeBank();
    bank.fail["GET /api/bank/deposits"] = { status: 401, error: "Your session has expired: sign in again." };
    const { user } = renderBankPage();
    await user.click(screen.getByRole("tab", { name: "Deposit History" }));
    expect(await screen.findByText("Could not load your deposits")).toBeInTheDocument();
    expect(screen.getByText("Your session has expired: sign in again.")).toBeInTheDocument();
  });

  it("lists amount, account, status and the mint's transaction link", async () => {
    fakeBank({
      deposits: [
        deposit({ id: 8, status: "completed", txHash: MINT_TX, completedAt: "2025-01-01T12:00:08.000Z" }),
        deposit({ id: 9, amount: "1250.50", status: "failed", error: "The minter account has no ETH left to pay for gas." }),
      ],
    });
    const { user } = renderBankPage();
    await user.click(screen.getByRole("tab", { name: "Deposit History" }));
    const rows = (await screen.findAllByRole("row")).slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent("$25.00");
    expect(rows[0]).toHaveTextContent("Everyday Checking ••••6789");
    expect(within(rows[0]).getByText("Completed")).toBeInTheDocument();
    expect(within(rows[0]).getByRole("link", { name: `Mint transaction ${MINT_TX}` })).toHaveAttribute("href", `/tx/${MINT_TX}`);
    expect(rows[1]).toHaveTextContent("$1,250.50");
    expect(within(rows[1]).getByText("Failed")).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent("The minter account has no ETH left to pay for gas.");
    expect(within(rows[1]).queryByRole("link")).not.toBeInTheDocument();
  });

  it("refreshes itself while a deposit is under way, and stops once none is", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const bank = fakeBank({ deposits: [deposit({ status: "processing" })] });
    const { user } = renderBankPage();
    await user.click(screen.getByRole("tab", { name: "Deposit History" }));
    expect(await screen.findByText("Processing")).toBeInTheDocument();
    bank.deposits = [deposit({ status: "completed", txHash: MINT_TX })];
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(await screen.findByText("Completed")).toBeInTheDocument();
    const settled = callsTo(bank, "/api/bank/deposits");
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(callsTo(bank, "/api/bank/deposits")).toBe(settled);
  });
});

async function fillAccount(user: ReturnType<typeof renderBankPage>["user"], { routing = "021000021" } = {}) {
  const dialog = screen.getByRole("dialog", { name: "Add Bank Account" });
  await user.type(within(dialog).getByLabelText("Account Name"), "Everyday Checking");
  await user.click(within(dialog).getByLabelText("Account Type"));
  await user.click(await screen.findByRole("option", { name: "Checking" }));
  await user.type(within(dialog).getByLabelText("Account Number"), "123456789");
  await user.type(within(dialog).getByLabelText("Routing Number"), routing);
  await user.click(within(dialog).getByRole("button", { name: "Add Account" }));
}
