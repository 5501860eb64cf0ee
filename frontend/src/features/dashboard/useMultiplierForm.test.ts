import { createElement, type FormEvent } from "react";
import { ConfigContext } from "@/lib/config";
import { testConfig } from "@/test/config";
import { act, renderHook } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useToasts } from "@/components/ui/toast";
import type { TxOutcome, TxRequest } from "@/lib/tx/runner";
import { resulting, useMultiplierDialog, useMultiplierForm } from "./hooks/useMultiplierForm";

const { run, audit } = vi.hoisted(() => ({ run: vi.fn<(request: TxRequest) => Promise<TxOutcome>>(), audit: vi.fn() }));
vi.mock("@/lib/tx/runner", () => ({ useTransactor: () => run }));
vi.mock("@/lib/tx/multiplierAudit", () => ({ recordMultiplierRequest: audit }));

const ONE = 10n ** 18n;
/** 1.015x, with a last digit no rounding would keep. */
const CURRENT = 1_015000000000000001n;

const submitEvent = () => ({ preventDefault: vi.fn() }) as unknown as FormEvent;

/** The dialog's hook and the form's together, as the dialog mounts them. */
function renderDialog(options: { connected?: boolean; current?: bigint } = {}) {
  const connected = options.connected ?? true;
  // Said undefined: not read yet.
  const current = "current" in options ? options.current : CURRENT;
  const onOpenChange = vi.fn();
  const view = renderHook(
    () => {
      const dialog = useMultiplierDialog(connected, onOpenChange);
      return { dialog, form: useMultiplierForm(dialog.form, current, dialog.close) };
    },
    // The step bound (1%) comes from the server's config.
    { wrapper: ({ children }) => createElement(ConfigContext.Provider, { value: testConfig() }, children) },
  );
  const submit = () => act(() => view.result.current.form.submit(submitEvent()));
  return { ...view, submit, onOpenChange };
}

beforeEach(() => {
  useToasts.setState({ toasts: [] });
  run.mockReset().mockResolvedValue({ ok: true, hash: "0xabc", error: null });
  audit.mockReset().mockResolvedValue(undefined);
});

describe("useMultiplierForm: Update Reward Multiplier's rules", () => {
  it("starts a set from the current multiplier exactly, and an add from 0.01; switching drops the problem", () => {
    const { result, submit } = renderDialog();
    expect(result.current.form).toMatchObject({ operation: "set", value: "1.015000000000000001", next: CURRENT });
    act(() => result.current.form.setValue("abc"));
    submit();
    expect(result.current.form.problem).toBe("Please enter a valid positive number");
    act(() => result.current.form.choose("add"));
    expect(result.current.form).toMatchObject({ operation: "add", value: "0.01", problem: undefined, next: CURRENT + 10n ** 16n });
    act(() => result.current.form.choose("set"));
    expect(result.current.form.value).toBe("1.015000000000000001");
  });

  it("starts a set empty while the multiplier is unknown, and previews no add without it", () => {
    const { result } = renderDialog({ current: undefined });
    expect(result.current.form).toMatchObject({ value: "", next: null });
    act(() => result.current.form.choose("add"));
    expect(result.current.form.next).toBeNull();
  });

  it("asks for a wallet first, under the value", () => {
    const { result, submit } = renderDialog({ connected: false });
    submit();
    expect(result.current.form.problem).toBe("Please connect your wallet to update the reward multiplier");
    expect(run).not.toHaveBeenCalled();
    expect(audit).not.toHaveBeenCalled();
  });

  it("refuses 0 and what is not a plain positive number, sending nothing", () => {
    const { result, submit } = renderDialog();
    for (const value of ["0", "-1", "1e18", ""]) {
      act(() => result.current.form.setValue(value));
      submit();
      expect(result.current.form.problem).toBe("Please enter a valid positive number");
    }
    expect(useToasts.getState().toasts[0]).toMatchObject({ title: "Invalid value", variant: "destructive" });
    expect(run).not.toHaveBeenCalled();
  });

  it("records the audit request first, then sends the oracle's transaction, then closes", async () => {
    const order: string[] = [];
    audit.mockImplementation(async () => void order.push("audit"));
    run.mockImplementation(async () => {
      order.push("transaction");
      return { ok: true, hash: "0xabc", error: null };
    });
    const { result, submit, onOpenChange } = renderDialog();
    act(() => {
      result.current.form.choose("add");
      result.current.form.setValue("0.05");
    });
    // +4.93% to every balance: above the 1% bound, so nothing goes until the increment is typed again.
    expect(result.current.form.guard.blocked).toBe(true);
    submit();
    expect(audit).not.toHaveBeenCalled();
    expect(run).not.toHaveBeenCalled();
    act(() => result.current.form.guard.setRetype("0.05"));
    submit();
    await vi.waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(order).toEqual(["audit", "transaction"]);
    expect(audit).toHaveBeenCalledWith("add", 5n * 10n ** 16n);
  });

  it("keeps the dialog open while busy", async () => {
    let finish!: (outcome: TxOutcome) => void;
    run.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    const { result, submit, onOpenChange } = renderDialog();
    submit();
    await vi.waitFor(() => expect(result.current.form.busy).toBe(true));
    act(() => void result.current.dialog.openChange(false));
    expect(onOpenChange).not.toHaveBeenCalled();
    await act(async () => finish({ ok: false, hash: null, error: "rejected" }));
    act(() => void result.current.dialog.openChange(false));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});

describe("resulting: the multiplier a change would leave", () => {
  it("is the value for a set, the sum for an add, and nothing for 0 or what is not a number", () => {
    expect(resulting("set", "1.5", ONE)).toBe(ONE + ONE / 2n);
    expect(resulting("add", "0.25", ONE)).toBe(ONE + ONE / 4n);
    expect(resulting("add", "0.25", undefined)).toBeNull();
    expect(resulting("set", "0", ONE)).toBeNull();
    expect(resulting("set", "one", ONE)).toBeNull();
  });
});
