import type { FormEvent, ReactNode } from "react";
import { act, renderHook } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { BankWallet } from "./api";
import { useAddWalletForm } from "./hooks/useAddWalletForm";
import { ALICE, ERIN, fakeBank, lastToast, resetAll, wallet } from "./testUtils";

beforeEach(resetAll);

const submitEvent = () => ({ preventDefault: vi.fn() }) as unknown as FormEvent;

function renderForm(wallets: BankWallet[], connected: string | null = null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const onOpenChange = vi.fn();
  const view = renderHook(() => useAddWalletForm(wallets, connected, onOpenChange), { wrapper });
  const submit = () => act(() => view.result.current.submit(submitEvent()));
  return { ...view, submit, onOpenChange };
}

describe("useAddWalletForm: Add Wallet's rules", () => {
  it("asks for the name first when both are missing, then the address; typing drops the problem", async () => {
    const bank = fakeBank();
    const { result, submit } = renderForm([]);
    await submit();
    expect(result.current.problem).toEqual({ field: "name", text: "Please provide both the wallet name and address." });
    expect(lastToast()).toMatchObject({ title: "Missing Information", variant: "destructive" });
    act(() => result.current.changeName("Savings"));
    expect(result.current.problem).toBeNull();
    await submit();
    expect(result.current.problem?.field).toBe("address");
    act(() => result.current.changeAddress("0x1234"));
    await submit();
    const invalid = "Please enter a valid Ethereum address: 0x followed by 40 hex characters.";
    expect(result.current.problem).toEqual({ field: "address", text: invalid });
    expect(bank.calls.filter((c) => c.method === "POST")).toEqual([]);
  });

  it("refuses an address already listed, in any letter case, naming the wallet it is", async () => {
    fakeBank();
    const { result, submit } = renderForm([wallet({ name: "Main wallet", address: ERIN })]);
    act(() => {
      result.current.changeName("Again");
      result.current.changeAddress(ERIN.toLowerCase());
    });
    await submit();
    expect(result.current.problem).toEqual({ field: "address", text: `${ERIN} is already in your wallets as 'Main wallet'.` });
  });

  it("offers the connected wallet only while it is not listed, and fills it in", () => {
    fakeBank();
    expect(renderForm([wallet({ address: ERIN })], ERIN.toLowerCase()).result.current.fillConnected).toBeNull();
    expect(renderForm([], null).result.current.fillConnected).toBeNull();
    const { result } = renderForm([wallet({ address: ERIN })], ALICE);
    act(() => result.current.fillConnected!());
    expect(result.current.address).toBe(ALICE);
  });

  it("adds the wallet with the name trimmed and the address checksummed, then closes and clears the form", async () => {
    const bank = fakeBank();
    const { result, submit, onOpenChange } = renderForm([]);
    act(() => {
      result.current.changeName("  Savings  ");
      result.current.changeAddress(` ${ALICE.toLowerCase()} `);
    });
    await submit();
    const sent = bank.calls.find((c) => c.method === "POST");
    expect(sent).toMatchObject({ path: "/api/bank/wallets", body: { name: "Savings", address: ALICE } });
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(result.current).toMatchObject({ name: "", address: "", problem: null, busy: false });
  });

  it("shows the server's refusal under the address and stays open", async () => {
    const bank = fakeBank();
    bank.fail["POST /api/bank/wallets"] = { status: 409, error: "Wallet limit reached: 10 wallets per user." };
    const { result, submit, onOpenChange } = renderForm([]);
    act(() => {
      result.current.changeName("Savings");
      result.current.changeAddress(ALICE);
    });
    await submit();
    expect(result.current.problem).toEqual({ field: "address", text: "Wallet limit reached: 10 wallets per user." });
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(result.current.name).toBe("Savings");
  });

  it("refuses to close while the server answers; closing otherwise clears the form", async () => {
    const bank = fakeBank();
    bank.hang.add("POST /api/bank/wallets");
    const { result, onOpenChange } = renderForm([]);
    act(() => {
      result.current.changeName("Savings");
      result.current.changeAddress(ALICE);
    });
    act(() => void result.current.submit(submitEvent()));
    expect(result.current.busy).toBe(true);
    act(() => result.current.close(false));
    expect(onOpenChange).not.toHaveBeenCalled();

    const idle = renderForm([]);
    act(() => idle.result.current.changeName("Draft"));
    act(() => idle.result.current.close(true));
    expect(idle.onOpenChange).toHaveBeenLastCalledWith(true);
    expect(idle.result.current.name).toBe("Draft");
    act(() => idle.result.current.close(false));
    expect(idle.onOpenChange).toHaveBeenLastCalledWith(false);
    expect(idle.result.current.name).toBe("");
  });
});
