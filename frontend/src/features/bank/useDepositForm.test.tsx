import type { FormEvent, ReactNode } from "react";
import { act, renderHook, waitFor } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { BankTerms } from "./api";
import { defaultWallet, useDepositForm } from "./hooks/useDepositForm";
import type { DepositTracker } from "./hooks/useDepositTracker";
import { account, ALICE, connect, ERIN, FAUCET_TERMS, fakeBank, lastToast, resetAll, TERMS, wallet } from "./testUtils";

beforeEach(resetAll);

const submitEvent = () => ({ preventDefault: vi.fn() }) as unknown as FormEvent;

function renderForm(terms: BankTerms = TERMS) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const tracker = { track: vi.fn() } as unknown as DepositTracker;
  const view = renderHook(() => useDepositForm({ data: terms }, tracker), { wrapper });
  const submit = () => act(() => view.result.current.submit(submitEvent()));
  return { ...view, submit, tracker };
}

/** Renders and waits for the accounts and wallets. */
async function loaded(terms?: BankTerms) {
  const view = renderForm(terms);
  await waitFor(() => expect(view.result.current.accounts.data && view.result.current.wallets.data).toBeTruthy());
  return view;
}

describe("defaultWallet: where a deposit goes unless the user picks another", () => {
  const main = wallet({ id: 1, name: "Main", address: ERIN, isPrimary: true });
  const other = wallet({ id: 2, name: "Other", address: ALICE, isPrimary: false, verified: true });

  it("is the connected wallet when listed (in any letter case), else the primary, else the first", () => {
    expect(defaultWallet([main, other], ALICE.toLowerCase(), false)).toBe(other);
    expect(defaultWallet([other, main], null, false)).toBe(main);
    expect(defaultWallet([other, main], "0x0000000000000000000000000000000000000001", false)).toBe(main);
    expect(defaultWallet([{ ...other, isPrimary: false }], null, false)?.id).toBe(2);
    expect(defaultWallet([], ERIN, false)).toBeUndefined();
  });

  it("in test-faucet mode, picks among the verified wallets first, and only then among all", () => {
    expect(defaultWallet([main, other], ERIN, true)).toBe(other);
    const unverified = { ...other, verified: false };
    expect(defaultWallet([main, unverified], ALICE, true)).toBe(unverified);
  });
});

describe("useDepositForm: Deposit USD's rules", () => {
  it("puts a missing or unverified account's problem under the account, and sends nothing", async () => {
    const bank = fakeBank({ accounts: [account(), account({ id: 2, name: "Rainy Day", status: "pending" })], wallets: [wallet()] });
    const { result, submit } = await loaded();
    expect(result.current.anyPending).toBe(true);
    act(() => result.current.changeAmount("25"));
    await submit();
    expect(result.current.problem).toEqual({ field: "account", text: "Please choose the bank account to deposit from." });
    expect(result.current.errorId("account")).toBe("deposit-problem");
    expect(result.current.errorId("amount")).toBeUndefined();
    act(() => result.current.chooseAccount("2"));
    expect(result.current.problem).toBeNull();
    await submit();
    const verifying = "Rainy Day is still being verified; you can deposit from it in a few seconds.";
    expect(result.current.problem).toEqual({ field: "account", text: verifying });
    expect(lastToast()).toMatchObject({ title: "Invalid Deposit", variant: "destructive" });
    expect(bank.calls.filter((c) => c.method === "POST")).toEqual([]);
  });

  it("puts the amount's problem under the amount once the account is verified; typing drops it", async () => {
    fakeBank({ accounts: [account()], wallets: [wallet()] });
    const { result, submit } = await loaded();
    act(() => {
      result.current.chooseAccount("1");
      result.current.changeAmount("0");
    });
    await submit();
    expect(result.current.problem).toEqual({ field: "amount", text: "Please enter an amount greater than 0." });
    act(() => result.current.changeAmount("12.345"));
    expect(result.current.problem).toBeNull();
    await submit();
    expect(result.current.problem).toEqual({ field: "amount", text: "A US dollar amount has at most 2 decimals (cents)." });
  });

  it("refuses under the form when there is no wallet to receive the USDX", async () => {
    fakeBank({ accounts: [account()], wallets: [] });
    const { result, submit } = await loaded();
    expect(result.current.wallet).toBeUndefined();
    act(() => {
      result.current.chooseAccount("1");
      result.current.changeAmount("25");
    });
    await submit();
    expect(result.current.problem).toEqual({ field: "form", text: "Add a wallet to receive the USDX first." });
    expect(lastToast()).toMatchObject({ title: "Invalid Deposit", description: "Add a wallet to receive the USDX first." });
  });

  it("in test-faucet mode, refuses a wallet not proved, under the form", async () => {
    const bank = fakeBank({ terms: FAUCET_TERMS, accounts: [account()], wallets: [wallet({ verified: false })] });
    const { result, submit } = await loaded(FAUCET_TERMS);
    act(() => {
      result.current.chooseAccount("1");
      result.current.changeAmount("25");
    });
    await submit();
    expect(result.current.problem?.field).toBe("form");
    expect(result.current.problem?.text).toMatch(/^The wallet 'Main wallet' is not verified: the test faucet mints only to wallets you/);
    expect(bank.calls.filter((c) => c.method === "POST")).toEqual([]);
  });

  it("requests the deposit to the wallet chosen (the connected one by default), tracks it and clears the amount", async () => {
    connect(ALICE);
    const second = wallet({ id: 2, name: "Second", address: ALICE, isPrimary: false });
    const bank = fakeBank({ accounts: [account()], wallets: [wallet(), second] });
    const { result, submit, tracker } = await loaded();
    expect(result.current.wallet?.id).toBe(2);
    act(() => {
      result.current.chooseAccount("1");
      result.current.chooseWallet("1");
      result.current.changeAmount("25.50");
    });
    expect(result.current.wallet?.id).toBe(1);
    await submit();
    const sent = bank.calls.find((c) => c.method === "POST");
    expect(sent).toMatchObject({ path: "/api/bank/deposits", body: { bankAccountId: 1, amount: "25.50", walletId: 1 } });
    expect(tracker.track).toHaveBeenCalledWith(expect.objectContaining({ amount: "25.50", walletAddress: ERIN }));
    expect(lastToast()).toMatchObject({
      title: "Deposit Requested",
      description: "$25.50 from Everyday Checking (••••6789): 25.50 USDX to 0x71bE...5788 in about 8 seconds.",
    });
    expect(result.current).toMatchObject({ amount: "", problem: null, busy: false });
  });

  it("shows the server's refusal under the form and keeps the amount", async () => {
    const bank = fakeBank({ accounts: [account()], wallets: [wallet()] });
    bank.fail["POST /api/bank/deposits"] = { status: 429, error: "Daily mock deposit limit reached." };
    const { result, submit } = await loaded();
    act(() => {
      result.current.chooseAccount("1");
      result.current.changeAmount("25");
    });
    await submit();
    expect(result.current.problem).toEqual({ field: "form", text: "Daily mock deposit limit reached." });
    expect(lastToast()).toMatchObject({ title: "Deposit Failed", variant: "destructive" });
    expect(result.current.amount).toBe("25");
  });
});
