import { useState } from "react";
import { KeyRound, Loader2, Send, Trash2 } from "lucide-react";
import { ALERT_KIND_INFO } from "@common/alerts";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { toast } from "@/components/ui/toast";
import { problemText, useDeleteRule, useRotateSecret, useSendTest, useSetEnabled, type AlertRule } from "../api";
import { attemptSummary } from "./DeliveryLog";

/** What the rule watches, with its amount or step: 'Mint above an amount: more than 10000 USDX'. */
export function ruleLabel(rule: Pick<AlertRule, "kind" | "threshold">): string {
  const { label } = ALERT_KIND_INFO[rule.kind];
  if (rule.threshold === null) return rule.kind === "mint" || rule.kind === "burn" ? `${label}: any` : label;
  return rule.kind === "multiplier" ? `${label}: by more than ${rule.threshold}` : `${label}: more than ${rule.threshold} USDX`;
}

type Confirming = { action: "delete" | "rotate"; rule: AlertRule } | null;

/** The rules: on or off, 'Send test', a new secret, delete (the last two ask first). */
export function RulesTable({ rules, onSecret }: { rules: AlertRule[]; onSecret(secret: { ruleId: number; value: string }): void }) {
  const setEnabled = useSetEnabled();
  const sendTest = useSendTest();
  const [confirming, setConfirming] = useState<Confirming>(null);

  const test = async (rule: AlertRule) => {
    try {
      const delivery = await sendTest.mutateAsync(rule.id);
      const attempt = delivery.attempts[delivery.attempts.length - 1];
      const detail = attempt ? attemptSummary(attempt) : "no attempt";
      if (delivery.status === "delivered") toast({ title: "Test delivered", description: `Rule #${rule.id}: ${detail}` });
      else toast({ title: "Test not delivered", description: `Rule #${rule.id}: ${detail}`, variant: "destructive" });
    } catch (error) {
      toast({ title: "Test not sent", description: problemText(error), variant: "destructive" });
    }
  };

  const toggle = async (rule: AlertRule, enabled: boolean) => {
    try {
      await setEnabled.mutateAsync({ id: rule.id, enabled });
      toast({ title: enabled ? "Alert rule on" : "Alert rule off", description: `Rule #${rule.id}: ${ruleLabel(rule)}` });
    } catch (error) {
      toast({ title: "Could not change the rule", description: problemText(error), variant: "destructive" });
    }
  };

  return (
    <>
      <Table aria-label="Alert rules">
        <TableHeader>
          <TableRow>
            <TableHead>Rule</TableHead>
            <TableHead>Webhook</TableHead>
            <TableHead>Secret</TableHead>
            <TableHead>On</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rules.map((rule) => {
            const testing = sendTest.isPending && sendTest.variables === rule.id;
            return (
              <TableRow key={rule.id}>
                <TableCell className="min-w-[12rem]">
                  <div className="font-medium">{ruleLabel(rule)}</div>
                  <div className="text-xs text-muted-foreground">#{rule.id}</div>
                </TableCell>
                <TableCell className="min-w-[12rem] max-w-[18rem] font-mono text-xs [overflow-wrap:anywhere]">{rule.webhookUrl}</TableCell>
                <TableCell className="whitespace-nowrap font-mono text-xs" title="The secret's last four characters">
                  {rule.secretHint}
                </TableCell>
                <TableCell>
                  <Checkbox
                    aria-label={`Rule #${rule.id} on`}
                    checked={rule.enabled}
                    disabled={setEnabled.isPending && setEnabled.variables?.id === rule.id}
                    onChange={(e) => void toggle(rule, e.target.checked)}
                  />
                </TableCell>
                <TableCell>
                  <div className="flex justify-end gap-1">
                    <Button type="button" size="sm" variant="outline" onClick={() => void test(rule)} disabled={testing} aria-label={`Send test for rule #${rule.id}`}>
                      {testing ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <Send className="h-4 w-4" aria-hidden />}
                      Send test
                    </Button>
                    <Button type="button" size="sm" variant="ghost" onClick={() => setConfirming({ action: "rotate", rule })} aria-label={`Rotate the secret of rule #${rule.id}`} title="Rotate the secret">
                      <KeyRound className="h-4 w-4" aria-hidden />
                    </Button>
                    <Button type="button" size="sm" variant="ghost" onClick={() => setConfirming({ action: "delete", rule })} aria-label={`Delete rule #${rule.id}`} title="Delete the rule">
                      <Trash2 className="h-4 w-4 text-destructive" aria-hidden />
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <ConfirmDialog confirming={confirming} onClose={() => setConfirming(null)} onSecret={onSecret} />
    </>
  );
}

/** Deleting (with its log) and rotating (the receiver needs the new secret) both ask first. */
function ConfirmDialog({ confirming, onClose, onSecret }: { confirming: Confirming; onClose(): void; onSecret(secret: { ruleId: number; value: string }): void }) {
  const remove = useDeleteRule();
  const rotate = useRotateSecret();
  const busy = remove.isPending || rotate.isPending;
  const rule = confirming?.rule;
  const deleting = confirming?.action === "delete";

  const confirm = async () => {
    if (!rule || busy) return;
    try {
      if (deleting) {
        await remove.mutateAsync(rule.id);
        toast({ title: "Alert rule deleted", description: `Rule #${rule.id} and its delivery log were removed.` });
      } else {
        const made = await rotate.mutateAsync(rule.id);
        onSecret({ ruleId: made.rule.id, value: made.secret });
      }
    } catch (error) {
      toast({ title: deleting ? "Delete failed" : "Rotation failed", description: problemText(error), variant: "destructive" });
    }
    onClose();
  };

  return (
    <Dialog open={confirming !== null} onOpenChange={(open) => !open && !busy && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>{deleting ? "Delete alert rule?" : "Rotate the signing secret?"}</DialogTitle>
          <DialogDescription className="[overflow-wrap:anywhere]">
            {rule && (deleting
              ? `Rule #${rule.id} (${ruleLabel(rule)}) stops alerting, and its delivery log is removed. This cannot be undone.`
              : `Rule #${rule.id}'s deliveries are signed with a new secret from now on; the receiver at ${rule.webhookUrl} needs it before the next delivery.`)}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="button" variant={deleting ? "destructive" : "default"} onClick={() => void confirm()} disabled={busy}>
            {busy && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
            {deleting ? "Delete" : "Rotate Secret"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
