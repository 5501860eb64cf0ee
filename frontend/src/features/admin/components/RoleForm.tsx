import { useId } from "react";
import { ROLE_NAMES, ROLE_PERMITS } from "@common/roles";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectSeparator, SelectTrigger, SelectValue } from "@/components/ui/select";
import { FieldError } from "@/components/ui/field-error";
import { ROLE_NOT_CONNECTED, useRoleForm, type RoleAction } from "../hooks/useRoleForm";
import { AccountPreview } from "./AccountPreview";
import { ChoiceField, FormFooter, TextField } from "./fields";
import { RoleRequirement } from "./RoleNotes";

const ACTIONS: { value: RoleAction; label: string }[] = [
  { value: "grant", label: "Grant" },
  { value: "revoke", label: "Revoke" },
];
// The operational roles first; the admin role, which can hand out all the others, after a rule.
const OPERATIONAL = ROLE_NAMES.filter((name) => name !== "DEFAULT_ADMIN_ROLE");

/** Grants or revokes a role (DEFAULT_ADMIN_ROLE); revoking the admin role from yourself asks once more. */
export function RoleForm({ adminPanel = false }: { adminPanel?: boolean }) {
  const change = useRoleForm();
  const { form } = change;
  const roleId = useId();

  return (
    <Card>
      <CardHeader>
        <CardTitle>Grant or Revoke a Role</CardTitle>
        <CardDescription>Roles decide who may mint, burn, block, pause, set the reward multiplier and upgrade USDX.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={change.submit} noValidate className="grid gap-4">
          <TextField
            label="Account Address"
            value={change.account}
            onChange={change.changeAccount}
            error={form.errors.account}
            disabled={change.locked}
          >
            <AccountPreview input={change.account} showRoles />
          </TextField>
          <div className="grid gap-1.5">
            <Label htmlFor={roleId}>Role</Label>
            <Select value={change.role} onValueChange={change.chooseRole} disabled={change.locked}>
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
              change.chosenRole && <p className="text-xs text-muted-foreground">Allows the holder to {ROLE_PERMITS[change.chosenRole]}.</p>
            )}
          </div>
          <ChoiceField<RoleAction>
            label="Action"
            value={change.action}
            onChange={change.setAction}
            options={ACTIONS}
            disabled={change.locked}
          />
          {change.chosenRole && change.redundant && (
            <p className="text-xs text-amber-700">
              This account {change.already ? "already holds" : "does not hold"} {change.chosenRole}: the change would do nothing.
            </p>
          )}
          {adminPanel && <RoleRequirement role="DEFAULT_ADMIN_ROLE" />}
          <FormFooter
            form={form}
            label="Apply Role Change"
            notConnected={ROLE_NOT_CONNECTED}
            incomplete={adminPanel && change.incomplete}
          />
        </form>
      </CardContent>
    </Card>
  );
}
