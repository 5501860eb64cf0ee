import type { FormEvent } from "react";
import { act, renderHook } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useRoleForm } from "./hooks/useRoleForm";
import { connect, flagsOf, lastToast, ME, OTHER, resetAll, run, useChain } from "./testUtils";

vi.mock("@/lib/chain/queries", async () => (await import("./testUtils")).queriesMock);
vi.mock("@/lib/tx/runner", async () => (await import("./testUtils")).runnerMock);

const submitEvent = () => ({ preventDefault: vi.fn() }) as unknown as FormEvent;

function renderForm() {
  const view = renderHook(() => useRoleForm());
  const submit = () => act(() => view.result.current.submit(submitEvent()));
  return { ...view, submit };
}

beforeEach(resetAll);

describe("useRoleForm: Grant or Revoke a Role's rules", () => {
  it("asks for a wallet before anything else, and sends nothing", () => {
    const { result, submit } = renderForm();
    submit();
    expect(lastToast()).toMatchObject({ title: "Wallet not connected", description: "Please connect your wallet to manage roles" });
    expect(result.current.form.errors).toEqual({});
    expect(run).not.toHaveBeenCalled();
  });

  it("checks the account and the role together, each problem under its own field, the account's toasted", () => {
    connect(ME, "DEFAULT_ADMIN_ROLE");
    const { result, submit } = renderForm();
    expect(result.current.incomplete).toBe(true);
    submit();
    expect(result.current.form.errors).toEqual({ account: "Please enter a valid Ethereum address", role: "Please choose a role" });
    expect(lastToast()).toMatchObject({ title: "Invalid address", variant: "destructive" });
    // Editing a field drops that field's problem only.
    act(() => result.current.changeAccount(OTHER));
    expect(result.current.form.errors).toEqual({ role: "Please choose a role" });
    act(() => result.current.chooseRole("NOT_A_ROLE"));
    expect(result.current.chosenRole).toBeNull();
    submit();
    expect(result.current.form.errors.account).toBeUndefined();
    expect(result.current.form.errors.role).toMatch(/NOT_A_ROLE/);
    expect(run).not.toHaveBeenCalled();
  });

  it("grants at once, then clears the account and the role", async () => {
    connect(ME, "DEFAULT_ADMIN_ROLE");
    const { result, submit } = renderForm();
    act(() => {
      result.current.changeAccount(OTHER.toLowerCase());
      result.current.chooseRole("MINTER_ROLE");
    });
    expect(result.current.incomplete).toBe(false);
    submit();
    expect(result.current.form.pending).toBeNull();
    await vi.waitFor(() => expect(result.current.account).toBe(""));
    expect(run).toHaveBeenCalledTimes(1);
    expect(run.mock.calls[0][0].action).toBe("Grant MINTER_ROLE to 0x3C44...93BC");
    expect(result.current.role).toBe("");
  });

  it("asks once more before revoking DEFAULT_ADMIN_ROLE from the connected wallet itself, in any letter case", async () => {
    connect(ME, "DEFAULT_ADMIN_ROLE");
    const { result, submit } = renderForm();
    act(() => {
      result.current.changeAccount(ME.toLowerCase());
      result.current.chooseRole("DEFAULT_ADMIN_ROLE");
      result.current.setAction("revoke");
    });
    submit();
    expect(result.current.form.pending).toMatchObject({
      title: "Revoke DEFAULT_ADMIN_ROLE from your own wallet 0x7099...79C8?",
      confirmLabel: "Revoke my admin role",
    });
    expect(result.current.locked).toBe(true);
    expect(run).not.toHaveBeenCalled();
    act(() => result.current.form.confirm());
    await vi.waitFor(() => expect(run).toHaveBeenCalledTimes(1));
    expect(run.mock.calls[0][0].action).toBe("Revoke DEFAULT_ADMIN_ROLE from 0x7099...79C8");
  });

  it("says when the change would do nothing: granting a role held, revoking one not held", () => {
    connect(ME, "DEFAULT_ADMIN_ROLE");
    useChain.setState((s) => ({ roles: { ...s.roles, [OTHER]: flagsOf("MINTER_ROLE") } }));
    const { result } = renderForm();
    act(() => result.current.changeAccount(OTHER));
    // No role chosen yet: nothing to say.
    expect(result.current.already).toBeUndefined();
    expect(result.current.redundant).toBe(false);
    act(() => result.current.chooseRole("MINTER_ROLE"));
    expect(result.current).toMatchObject({ chosenRole: "MINTER_ROLE", already: true, redundant: true });
    act(() => result.current.setAction("revoke"));
    expect(result.current.redundant).toBe(false);
    act(() => result.current.chooseRole("BURNER_ROLE"));
    expect(result.current).toMatchObject({ already: false, redundant: true });
  });
});
