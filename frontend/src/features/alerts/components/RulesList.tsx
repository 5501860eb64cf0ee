import { useState } from "react";
import { KeyRound, Loader2, Send, Trash2 } from "lucide-react";
import { ALERT_KIND_INFO } from "@common/alerts";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toast";
import { problemText, useDeleteRule, useRotateSecret, useSendTest, useSetEnabled, type AlertRule } from "../api";
import { attemptSummary } from "./DeliveryLog";

/** What the rule watches, with its amount or step: 'Mint above an amount: more than 10000 USDX', 'Reward multiplier change: by more than 1% of every balance'. */
export function ruleLabel(rule: Pick<AlertRule, "kind" | "threshold" | "stepPercent">): string {
  const { label } = ALERT_KIND_INFO[rule.kind];
  if (rule.kind === "multiplier") {
    const steps = [
      rule.threshold !== null && `by more than ${rule.threshold}`,
      rule.stepPercent !== null && `by more than ${rule.stepPercent}% of every balance`,
    ];
    const said = steps.filter(Boolean).join(" and ");
    return said ? `${label}: ${said}` : label;
  }
  if (rule.threshold === null) return rule.kind === "mint" || rule.kind === "burn" ? `${label}: any` : label;
  return `${label}: more than ${rule.threshold} USDX`;
}

type Confirming = { action: "delete" | "rotate"; rule: AlertRule } | null;

/** The rules, each with what it watches, its webhook and secret hint: on or off, 'Send test', a new secret, delete (the last two ask first). */
export function RulesList({ rules, onSecret }: { rules: AlertRule[]; onSecret(secret: { ruleId: number; value: string }): void }) {
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
      {/* A list rather than a table: on a phone each rule wraps onto lines of its own, its actions in reach. */}
      <ul className="grid gap-2" aria-label="Alert rules">
        {rules.map((rule) => {
          const testing = sendTest.isPending && sendTest.variables === rule.id;
          return (
            <li
              key={rule.id}
              aria-label={`Rule #${rule.id}`}
              className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-md border border-border p-3"
            >
              <div className="grid min-w-0 flex-1 basis-64 gap-0.5">
                <span className="font-medium">{ruleLabel(rule)}</span>
                <span className="font-mono text-xs [overflow-wrap:anywhere]">{rule.webhookUrl}</span>
                <span className="text-xs text-muted-foreground">
                  #{rule.id} · secret{" "}
                  <span className="font-mono" title="The secret's last four characters">
                    {rule.secretHint}
                  </span>
                </span>
              </div>
              <label className="flex cursor-pointer items-center gap-2 text-sm">
                <Checkbox
                  aria-label={`Rule #${rule.id} on`}
                  checked={rule.enabled}
                  disabled={setEnabled.isPending && setEnabled.variables?.id === rule.id}
                  onChange={(e) => void toggle(rule, e.target.checked)}
                />
                <span aria-hidden>{rule.enabled ? "On" : "Off"}</span>
              </label>
              <div className="flex gap-1">
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  onClick={() => void test(rule)}
                  disabled={testing}
                  aria-label={`Send test for rule #${rule.id}`}
                >
                  {testing ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <Send className="h-4 w-4" aria-hidden />}
                  Send test
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant="ghost"
                  onClick={() => setConfirming({ action: "rotate", rule })}
                  aria-label={`Rotate the secret of rule #${rule.id}`}
                  title="Rotate the secret"
                >
                  <KeyRound className="h-4 w-4" aria-hidden />
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant="ghost"
                  onClick={() => setConfirming({ action: "delete", rule })}
                  aria-label={`Delete rule #${rule.id}`}
                  title="Delete the rule"
                >
                  <Trash2 className="h-4 w-4 text-destructive" aria-hidden />
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog confirming={confirming} onClose={() => setConfirming(null)} onSecret={onSecret} />
    </>
  );
}

/** Deleting (with its log) and rotating (the receiver needs the new secret) both ask first. */
function ConfirmDialog({
  confirming,
  onClose,
  onSecret,
}: {
  confirming: Confirming;
  onClose(): void;
  onSecret(secret: { ruleId: number; value: string }): void;
}) {
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
            {rule &&
              (deleting
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
