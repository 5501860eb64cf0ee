import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Landmark, Plus, Trash2 } from "lucide-react";
import { EmptyState, ReadStates } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { toast } from "@/components/ui/toast";
import { relativeTime } from "@/lib/format";
import { bankKeys, removeBankAccount, serverProblem, useBankAccounts, useUid, type BankAccount } from "../api";
import { AddAccountDialog } from "./AddAccountDialog";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { AccountStatusBadge } from "./StatusBadges";
import { isoSeconds, maskedNumber } from "../format";

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** My Bank Accounts: the list, Add Account, and removal. New accounts verify themselves after a few seconds. */
export function BankAccountsTab({ verifyMs }: { verifyMs: number | undefined }) {
  const accounts = useBankAccounts();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<BankAccount | null>(null);

  const addButton = (
    <Button onClick={() => setAdding(true)}>
      <Plus className="h-4 w-4" aria-hidden /> Add Account
    </Button>
  );

  const body = (
    <ReadStates
      query={accounts}
      failed="Could not load your bank accounts"
      loading="Loading bank accounts"
      isEmpty={(list) => list.length === 0}
      empty={
        <EmptyState
          icon={<Landmark />}
          title="No bank accounts yet"
          hint="Add a mock bank account to deposit USD and receive USDX. It is verified a few seconds after you add it."
        >
          {addButton}
        </EmptyState>
      }
    >
      {(list) => (
        <ul className="divide-y divide-border rounded-lg border border-border" aria-label="Bank accounts">
          {list.map((account) => (
            <li key={account.id} className="flex items-center gap-3 p-4">
              <div className="hidden rounded-full bg-muted p-2 text-muted-foreground sm:block">
                <Landmark className="h-5 w-5" aria-hidden />
              </div>
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{account.name}</p>
                <p className="text-sm text-muted-foreground">
                  <span className="capitalize">{account.type}</span> ·{" "}
                  <span className="font-mono text-xs" aria-label={`ending in ${account.lastFour}`}>
                    {maskedNumber(account.lastFour)}
                  </span>
                  <span className="hidden sm:inline" title={new Date(account.createdAt).toLocaleString()}>
                    {" "}
                    · Added {lowerFirst(relativeTime(isoSeconds(account.createdAt)))}
                  </span>
                </p>
              </div>
              <AccountStatusBadge status={account.status} />
              <Button
                size="icon"
                variant="ghost"
                className="h-8 w-8 shrink-0 text-muted-foreground hover:text-destructive"
                aria-label={`Remove ${account.name}`}
                title="Remove"
                onClick={() => setRemoving(account)}
              >
                <Trash2 className="h-4 w-4" aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </ReadStates>
  );

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div className="grid grid-cols-1 gap-1.5">
          <CardTitle>My Bank Accounts</CardTitle>
          <CardDescription>Accounts you can deposit US dollars from. Only verified accounts can be used.</CardDescription>
        </div>
        {accounts.data && accounts.data.length > 0 && addButton}
      </CardHeader>
      <CardContent>{body}</CardContent>
      <AddAccountDialog open={adding} onOpenChange={setAdding} verifyMs={verifyMs} />
      <RemoveAccountDialog account={removing} onDone={() => setRemoving(null)} />
    </Card>
  );
}

function RemoveAccountDialog({ account, onDone }: { account: BankAccount | null; onDone(): void }) {
  const queryClient = useQueryClient();
  const uid = useUid();
  const remove = async (target: BankAccount) => {
    try {
      await removeBankAccount(target.id);
      queryClient.setQueryData<BankAccount[]>(bankKeys.accounts(uid), (list) => list?.filter((a) => a.id !== target.id));
      toast({ title: "Account Removed", description: `${target.name} (${maskedNumber(target.lastFour)}) was removed.` });
      onDone();
    } catch (error) {
      toast({ ...serverProblem(error, "Could not remove the account"), variant: "destructive" });
    }
  };
  return (
    <ConfirmDialog
      open={account !== null}
      onCancel={onDone}
      title="Remove bank account?"
      description={
        account
          ? `${account.name} (${maskedNumber(account.lastFour)}) will no longer be available for deposits. Past deposits keep its name.`
          : ""
      }
      confirmLabel="Remove Account"
      busyLabel="Removing..."
      onConfirm={() => (account ? remove(account) : Promise.resolve())}
    />
  );
}
