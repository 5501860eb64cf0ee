import type { FormEvent } from "react";
import { act, renderHook } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useToasts } from "@/components/ui/toast";
import type { TxOutcome, TxRequest } from "@/lib/tx/runner";
import { useTransferForm } from "./hooks/useTransferForm";

const { run } = vi.hoisted(() => ({ run: vi.fn<(request: TxRequest) => Promise<TxOutcome>>() }));
vi.mock("@/lib/tx/runner", () => ({ useTransactor: () => run }));

const ME = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const OTHER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
/** 1,234.56 USDX and a little dust past the cents. */
const BALANCE = 1234_560000000000000001n;

const submitEvent = () => ({ preventDefault: vi.fn() }) as unknown as FormEvent;
const lastToast = () => useToasts.getState().toasts[0];

function renderForm(options: { address?: string | null; balance?: bigint } = {}) {
  const onOpenChange = vi.fn();
  // Said null or undefined: no wallet, or a balance not read yet.
  const address = "address" in options ? (options.address ?? null) : ME;
  const balance = "balance" in options ? options.balance : BALANCE;
  const props = { address, balance, onOpenChange };
  const view = renderHook(() => useTransferForm(props));
  const submit = () => act(() => view.result.current.submit(submitEvent()));
  return { ...view, submit, onOpenChange };
}

beforeEach(() => {
  useToasts.setState({ toasts: [] });
  run.mockReset().mockResolvedValue({ ok: true, hash: "0xabc", error: null });
});

describe("useTransferForm: PRODUCT.md section 5's order, stopping at the first problem", () => {
  it("asks for a wallet first, under the form, whatever else is wrong", () => {
    const { result, submit } = renderForm({ address: null, balance: undefined });
    expect(result.current.waitingForBalance).toBe(false);
    submit();
    expect(result.current.problem("wallet")).toBe("Please connect your wallet to transfer tokens");
    expect(result.current.errorId("wallet")).toBe("transfer-error");
    expect(result.current.invalid("to")).toBe(false);
    expect(run).not.toHaveBeenCalled();
  });

  it("then the recipient, and only the recipient", () => {
    const { result, submit } = renderForm();
    act(() => result.current.setAmount("0"));
    submit();
    expect(result.current.problem("to")).toBe("Please enter a valid Ethereum address");
    expect(result.current.invalid("amount")).toBe(false);
    expect(lastToast()).toMatchObject({ title: "Invalid address", variant: "destructive" });
  });

  it("then the amount: above 0, and not above the balance, which it names as shown", () => {
    const { result, submit } = renderForm();
    act(() => {
      result.current.setTo(OTHER);
      result.current.setAmount("0");
    });
    submit();
    expect(result.current.problem("amount")).toBe("Please enter a valid amount greater than 0");
    expect(result.current.invalid("to")).toBe(false);
    act(() => result.current.setAmount("1234.57"));
    submit();
    expect(result.current.problem("amount")).toBe("You only have 1,234.56 USDX available");
    expect(lastToast()).toMatchObject({ title: "Insufficient balance" });
    expect(run).not.toHaveBeenCalled();
  });

  it("Max fills the whole balance, every decimal, so nothing is left behind; it waits for the balance", () => {
    const { result } = renderForm();
    act(() => void result.current.fillMax());
    expect(result.current.amount).toBe("1234.560000000000000001");
    const unread = renderForm({ balance: undefined });
    expect(unread.result.current.waitingForBalance).toBe(true);
    expect(unread.result.current.shownBalance).toBeNull();
    act(() => void unread.result.current.fillMax());
    expect(unread.result.current.amount).toBe("");
  });

  it("sends a valid transfer once, then closes and clears the form", async () => {
    const { result, submit, onOpenChange } = renderForm();
    act(() => {
      result.current.setTo(OTHER.toLowerCase());
      result.current.fillMax();
    });
    submit();
    await vi.waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(run).toHaveBeenCalledTimes(1);
    expect(run.mock.calls[0][0].action).toMatch(/^Transfer .* to 0x3C44\.\.\.93BC$/);
    expect(result.current).toMatchObject({ to: "", amount: "" });
  });

  it("refuses to close while the transaction runs; closing otherwise clears what was typed and its problems", async () => {
    let finish!: (outcome: TxOutcome) => void;
    run.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    const { result, submit, onOpenChange } = renderForm();
    act(() => {
      result.current.setTo(OTHER);
      result.current.setAmount("1");
    });
    submit();
    expect(result.current.busy).toBe(true);
    act(() => void result.current.openChange(false));
    expect(onOpenChange).not.toHaveBeenCalled();
    await act(async () => finish({ ok: false, hash: null, error: "rejected" }));
    expect(result.current.busy).toBe(false);
    // A failed transfer keeps the form as it was.
    expect(result.current.to).toBe(OTHER);
    act(() => result.current.setTo("nope"));
    submit();
    expect(result.current.invalid("to")).toBe(true);
    act(() => void result.current.openChange(false));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(result.current).toMatchObject({ to: "", amount: "" });
    expect(result.current.invalid("to")).toBe(false);
  });
});
