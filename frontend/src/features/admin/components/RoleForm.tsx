import { useId, useState, type FormEvent } from "react";
import { ROLE_NAMES, ROLE_PERMITS } from "@common/roles";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectSeparator, SelectTrigger, SelectValue } from "@/components/ui/select";
import { FieldError } from "@/components/ui/field-error";
import { useRoleFlags } from "@/lib/chain/queries";
import { shortAddress } from "@/lib/format";
import { roleCall } from "@/lib/tx/calls";
import { checkAddress, checkRole, type Problem } from "@/lib/validation";
import { useWallet } from "@/lib/wallet/store";
import { useTxForm } from "@/lib/tx/useTxForm";
import { AccountPreview, validAddress } from "./AccountPreview";
import { ChoiceField, FormFooter, TextField } from "./fields";
import { RoleRequirement } from "./RoleNotes";

type Action = "grant" | "revoke";
const NOT_CONNECTED = roleCall("MINTER_ROLE", "", "grant").notConnected;
const ACTIONS: { value: Action; label: string }[] = [
  { value: "grant", label: "Grant" },
  { value: "revoke", label: "Revoke" },
];
// The operational roles first; the admin role, which can hand out all the others, after a rule.
const OPERATIONAL = ROLE_NAMES.filter((name) => name !== "DEFAULT_ADMIN_ROLE");

/** Grants or revokes a role (DEFAULT_ADMIN_ROLE); revoking the admin role from yourself asks once more. */
export function RoleForm({ adminPanel = false }: { adminPanel?: boolean }) {
  const form = useTxForm<"account" | "role">();
  const me = useWallet((s) => s.address);
  const [account, setAccount] = useState("");
  const [role, setRole] = useState("");
  const [action, setAction] = useState<Action>("grant");
  const roleId = useId();
  const locked = form.busy || form.pending !== null;
  const targetRoles = useRoleFlags(validAddress(account));
  const chosen = checkRole(role);
  const already = chosen.ok && targetRoles.data ? targetRoles.data[chosen.value] : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.needWallet(NOT_CONNECTED)) return;
    const to = checkAddress(account);
    const name = role === "" ? ({ ok: false, problem: { title: "Invalid role", description: "Please choose a role" } } as const) : checkRole(role);
    const problems: ["account" | "role", Problem][] = [];
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
            description: "You will no longer be able to grant or revoke roles or open the Admin Panel. If no other account is admin, nobody can.",
            confirmLabel: "Revoke my admin role",
          }
        : undefined,
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Grant or Revoke a Role</CardTitle>
        <CardDescription>Roles decide who may mint, burn, block, pause, set the reward multiplier and upgrade USDX.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <TextField
            label="Account Address"
            value={account}
            onChange={(v) => {
              setAccount(v);
              form.clearError("account");
            }}
            error={form.errors.account}
            disabled={locked}
          >
            <AccountPreview input={account} showRoles />
          </TextField>
          <div className="grid gap-1.5">
            <Label htmlFor={roleId}>Role</Label>
            <Select
              value={role}
              onValueChange={(v) => {
                setRole(v);
                form.clearError("role");
              }}
              disabled={locked}
            >
              <SelectTrigger
                id={roleId}
                aria-invalid={form.errors.role ? true : undefined}
                aria-describedby={form.errors.role ? `${roleId}-error` : undefined}
                className={form.errors.role ? "border-destructive" : undefined}
              >
                <SelectValue placeholder="Select a role" />
              </SelectTrigger>
              <SelectContent>
                {OPERATIONAL.map((name) => (
                  <SelectItem key={name} value={name}>
                    {name}
                  </SelectItem>
                ))}
                <SelectSeparator />
                <SelectItem value="DEFAULT_ADMIN_ROLE">DEFAULT_ADMIN_ROLE</SelectItem>
              </SelectContent>
            </Select>
            {form.errors.role ? (
              <FieldError id={`${roleId}-error`}>{form.errors.role}</FieldError>
            ) : (
              chosen.ok && <p className="text-xs text-muted-foreground">Allows the holder to {ROLE_PERMITS[chosen.value]}.</p>
            )}
          </div>
          <ChoiceField<Action> label="Action" value={action} onChange={setAction} options={ACTIONS} disabled={locked} />
          {chosen.ok && already !== undefined && already === (action === "grant") && (
            <p className="text-xs text-amber-700">
              This account {already ? "already holds" : "does not hold"} {chosen.value}: the change would do nothing.
            </p>
          )}
          {adminPanel && <RoleRequirement role="DEFAULT_ADMIN_ROLE" />}
          <FormFooter form={form} label="Apply Role Change" notConnected={NOT_CONNECTED} incomplete={adminPanel && (account.trim() === "" || role === "")} />
        </form>
      </CardContent>
    </Card>
  );
}
