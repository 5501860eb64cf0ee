import { useState, type FormEvent } from "react";
import type { RoleName } from "@common/roles";
import { useRoleFlags } from "@/lib/chain/queries";
import { shortAddress } from "@/lib/format";
import { roleCall } from "@/lib/tx/calls";
import { useTxForm } from "@/lib/tx/useTxForm";
import { checkAddress, checkRole, type Problem } from "@/lib/validation";
import { useWallet } from "@/lib/wallet/store";
import { validAddress } from "../components/AccountPreview";

export type RoleAction = "grant" | "revoke";

const NO_ROLE = { ok: false, problem: { title: "Invalid role", description: "Please choose a role" } } as const;
export type RoleField = "account" | "role";

/** What the form says when no wallet can sign. */
export const ROLE_NOT_CONNECTED = roleCall("MINTER_ROLE", "", "grant").notConnected;

/**
 * Grant or Revoke a Role's form: the account, the role and the action; the submit checks the wallet,
 * then the account and the role together (each problem under its field), and asks once more before
 * revoking DEFAULT_ADMIN_ROLE from the connected wallet itself. Once the account is a valid address,
 * the chain's answer of the roles it holds says whether the change would do nothing.
 */
export function useRoleForm() {
  const form = useTxForm<RoleField>();
  const me = useWallet((s) => s.address);
  const [account, setAccount] = useState("");
  const [role, setRole] = useState("");
  const [action, setAction] = useState<RoleAction>("grant");
  const targetRoles = useRoleFlags(validAddress(account));
  const chosen = checkRole(role);
  const chosenRole: RoleName | null = chosen.ok ? chosen.value : null;
  // Whether the account holds the chosen role now; undefined until both are known.
  const already = chosenRole !== null && targetRoles.data ? targetRoles.data[chosenRole] : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.needWallet(ROLE_NOT_CONNECTED)) return;
    const to = checkAddress(account);
    const name = role === "" ? NO_ROLE : checkRole(role);
    const problems: [RoleField, Problem][] = [];
    if (!to.ok) problems.push(["account", to.problem]);
    if (!name.ok) problems.push(["role", name.problem]);
    if (!to.ok || !name.ok) return form.reject(problems);
    const revokingOwnAdmin = action === "revoke" && name.value === "DEFAULT_ADMIN_ROLE" && to.value.toLowerCase() === me?.toLowerCase();
    form.start(roleCall(name.value, to.value, action), {
      onSuccess: () => {
        setAccount("");
        setRole("");
      },
      confirmation: revokingOwnAdmin
        ? {
            title: `Revoke DEFAULT_ADMIN_ROLE from your own wallet ${shortAddress(to.value)}?`,
            description:
              "You will no longer be able to grant or revoke roles or open the Admin Panel. If no other account is admin, nobody can.",
            confirmLabel: "Revoke my admin role",
          }
        : undefined,
    });
  }

  return {
    form,
    /** The fields wait while a change runs or waits for its confirmation. */
    locked: form.busy || form.pending !== null,
    account,
    /** The account typed; its problem shown goes. */
    changeAccount: (value: string) => {
      setAccount(value);
      form.clearError("account");
    },
    role,
    /** The role chosen; its problem shown goes. */
    chooseRole: (value: string) => {
      setRole(value);
      form.clearError("role");
    },
    action,
    setAction,
    /** The role chosen, once it is one. */
    chosenRole,
    already,
    /** The account already holds the role to grant, or does not hold the role to revoke. */
    redundant: already !== undefined && already === (action === "grant"),
    /** A field is still empty (the Admin Panel's forms say so by the button). */
    incomplete: account.trim() === "" || role === "",
    submit,
  };
}
