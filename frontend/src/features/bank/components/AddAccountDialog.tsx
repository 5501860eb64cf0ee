import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { FieldError } from "@/components/ui/field-error";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { toast } from "@/components/ui/toast";
import { addBankAccount, bankKeys, serverProblem, useUid, type BankAccount, type BankAccountType } from "../api";
import { maskedNumber } from "../format";

const EMPTY = { name: "", type: "" as BankAccountType | "", accountNumber: "", routingNumber: "" };

/**
 * Add Account: name, type, account number and routing number are all required ('Missing
 * Information', PRODUCT.md section 5); the digits are the server's to judge, and its sentence is shown.
 */
export function AddAccountDialog({
  open,
  onOpenChange,
  verifyMs,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  verifyMs: number | undefined;
}) {
  const queryClient = useQueryClient();
  const uid = useUid();
  const [form, setForm] = useState(EMPTY);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const finish = () => {
    setForm(EMPTY);
    setProblem(null);
    onOpenChange(false);
  };
  // Closing is refused while the server is answering; closing clears the form.
  const close = (next: boolean) => {
    if (busy) return;
    if (next) onOpenChange(true);
    else finish();
  };

  const set = (field: keyof typeof EMPTY) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setProblem(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { name, type, accountNumber, routingNumber } = form;
    if (!name.trim() || !type || !accountNumber.trim() || !routingNumber.trim()) {
      const description = "Please provide the account name, type, account number and routing number.";
      setProblem(description);
      toast({ title: "Missing Information", description, variant: "destructive" });
      return;
    }
    setBusy(true);
    try {
      const account = await addBankAccount({
        name: name.trim(),
        type,
        accountNumber: accountNumber.trim(),
        routingNumber: routingNumber.trim(),
      });
      queryClient.setQueryData<BankAccount[]>(bankKeys.accounts(uid), (list) => [...(list ?? []), account]);
      const wait = verifyMs === undefined ? "in a few seconds" : `in about ${Math.round(verifyMs / 1000)} seconds`;
      toast({ title: "Account Added", description: `${account.name} (${maskedNumber(account.lastFour)}) will be verified ${wait}.` });
      finish();
    } catch (error) {
      const refused = serverProblem(error, "Could not add the account");
      setProblem(refused.description);
      toast({ ...refused, variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };

  const describedBy = problem ? "add-account-problem" : undefined;
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Add Bank Account</DialogTitle>
          <DialogDescription>
            Mock bank: enter made-up numbers, never real bank details. Only the last four digits are kept.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <div className="grid grid-cols-1 gap-2">
            <Label htmlFor="account-name">Account Name</Label>
            <Input
              id="account-name"
              value={form.name}
              onChange={(e) => set("name")(e.target.value)}
              placeholder="Everyday checking"
              maxLength={100}
              autoComplete="off"
              aria-describedby={describedBy}
            />
          </div>
          <div className="grid grid-cols-1 gap-2">
            <Label htmlFor="account-type">Account Type</Label>
            <Select value={form.type} onValueChange={set("type")}>
              <SelectTrigger id="account-type" aria-describedby={describedBy}>
                <SelectValue placeholder="Choose checking or savings" />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="checking">Checking</SelectItem>
                <SelectItem value="savings">Savings</SelectItem>
              </SelectContent>
            </Select>
          </div>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <div className="grid grid-cols-1 gap-2">
              <Label htmlFor="account-number">Account Number</Label>
              <Input
                id="account-number"
                value={form.accountNumber}
                onChange={(e) => set("accountNumber")(e.target.value)}
                inputMode="numeric"
                placeholder="4 to 17 digits"
                autoComplete="off"
                maxLength={40}
                aria-describedby={describedBy}
              />
            </div>
            <div className="grid grid-cols-1 gap-2">
              <Label htmlFor="routing-number">Routing Number</Label>
              <Input
                id="routing-number"
                value={form.routingNumber}
                onChange={(e) => set("routingNumber")(e.target.value)}
                inputMode="numeric"
                placeholder="9 digits"
                autoComplete="off"
                maxLength={40}
                aria-describedby={describedBy}
              />
            </div>
          </div>
          {problem && <FieldError id="add-account-problem">{problem}</FieldError>}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? "Adding..." : "Add Account"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
