import { act, renderHook } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { recordNotices } from "@/test/notices";
import type { TxOutcome, TxRequest } from "./runner";
import { useTxForm } from "./useTxForm";

const { run } = vi.hoisted(() => ({ run: vi.fn<(request: TxRequest) => Promise<TxOutcome>>() }));
vi.mock("./runner", () => ({ useTransactor: () => run }));

const notices = recordNotices();
const request = { action: "Mint 1 USDX", notConnected: "Please connect your wallet to mint tokens" } as TxRequest;
const ok: TxOutcome = { ok: true, hash: "0xabc", error: null };

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

beforeEach(() => {
  notices.clear();
  run.mockReset().mockResolvedValue(ok);
});

describe("the form runner (useTxForm)", () => {
  it("asks for a wallet first: 'Wallet not connected' with the purpose, under the field given", () => {
    const { result } = renderHook(() => useTxForm<"to">({ connected: false }));
    let ready = true;
    act(() => void (ready = result.current.needWallet("Please connect your wallet to transfer tokens", "to")));
    expect(ready).toBe(false);
    expect(notices.last()).toEqual({
      title: "Wallet not connected",
      description: "Please connect your wallet to transfer tokens",
      variant: "destructive",
    });
    expect(result.current.errors).toEqual({ to: "Please connect your wallet to transfer tokens" });
  });

  it("toasts the first problem and puts each under its field; editing a field drops its problem", () => {
    const { result } = renderHook(() => useTxForm<"address" | "amount">({ connected: true }));
    act(() =>
      result.current.reject([
        ["address", { title: "Invalid address", description: "Please enter a valid Ethereum address" }],
        ["amount", { title: "Invalid amount", description: "Please enter a valid amount greater than 0" }],
      ]),
    );
    expect(notices.last()).toMatchObject({ title: "Invalid address", variant: "destructive" });
    expect(result.current.errors).toEqual({
      address: "Please enter a valid Ethereum address",
      amount: "Please enter a valid amount greater than 0",
    });
    act(() => result.current.clearError("address"));
    expect(result.current.errors.address).toBeUndefined();
    act(() => result.current.clearErrors());
    expect(result.current.errors).toEqual({});
  });

  it("is busy while the runner works, sends once however often it is asked, then calls onSuccess", async () => {
    const pending = deferred<TxOutcome>();
    run.mockReturnValue(pending.promise);
    const onSuccess = vi.fn();
    const { result } = renderHook(() => useTxForm({ connected: true }));
    act(() => {
      result.current.start(request, { onSuccess });
      result.current.start(request, { onSuccess });
    });
    expect(result.current.busy).toBe(true);
    await act(async () => pending.resolve(ok));
    expect(run).toHaveBeenCalledTimes(1);
    expect(onSuccess).toHaveBeenCalledTimes(1);
    expect(result.current.busy).toBe(false);
  });

  it("runs `before` first (the audit request), and no onSuccess when the transaction fails", async () => {
    const order: string[] = [];
    run.mockImplementation(async () => (order.push("run"), { ok: false, hash: null, error: "refused" }));
    const onSuccess = vi.fn();
    const { result } = renderHook(() => useTxForm({ connected: true }));
    await act(async () => result.current.start(request, { before: async () => void order.push("before"), onSuccess }));
    expect(order).toEqual(["before", "run"]);
    expect(onSuccess).not.toHaveBeenCalled();
  });

  it("asks once more before a destructive action: nothing is sent until confirm, and cancel drops it", async () => {
    const confirmation = {
      title: "Block 0x1234...abcd?",
      description: "A blocked account cannot send USDX.",
      confirmLabel: "Block account",
    };
    const { result } = renderHook(() => useTxForm({ connected: true }));
    act(() => result.current.start(request, { confirmation }));
    expect(result.current.pending).toMatchObject(confirmation);
    act(() => result.current.cancel());
    expect(result.current.pending).toBeNull();
    act(() => result.current.start(request, { confirmation }));
    await act(async () => result.current.confirm());
    expect(run).toHaveBeenCalledTimes(1);
    expect(result.current.pending).toBeNull();
  });

  it("performs work of several calls with the runner, busy until it is done (a batch)", async () => {
    const { result } = renderHook(() => useTxForm({ connected: true }));
    const pending = deferred<boolean>();
    let promise!: Promise<void>;
    act(() => {
      promise = result.current.perform(async (send) => {
        await send(request);
        await send(request);
        return pending.promise;
      });
    });
    expect(result.current.busy).toBe(true);
    await act(async () => {
      pending.resolve(true);
      await promise;
    });
    expect(run).toHaveBeenCalledTimes(2);
    expect(result.current.busy).toBe(false);
  });
});
