import { useId, useState, type FormEvent } from "react";
import { Loader2, Plus } from "lucide-react";
import { ALERT_KINDS, ALERT_KIND_INFO, type AlertKind } from "@common/alerts";
import { Button } from "@/components/ui/button";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { toast } from "@/components/ui/toast";
import { problemText, useAddRule, type AlertRule } from "../api";

/**
 * 'Add Rule': what to alert on (and the amount or step where the kind takes one) and the webhook.
 * The server checks everything again (the URL's address among it) and its sentence shows here.
 */
export function RuleForm({ onCreated }: { onCreated(made: { rule: AlertRule; secret: string }): void }) {
  const add = useAddRule();
  const [kind, setKind] = useState<AlertKind>("mint");
  const [threshold, setThreshold] = useState("");
  const [webhookUrl, setWebhookUrl] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const info = ALERT_KIND_INFO[kind];
  // The one number the kind takes: an amount, or (multiplier) a percentage of every balance.
  const limit = info.stepPercent ?? info.threshold;
  const errorId = `${id}-error`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    if (!webhookUrl.trim()) return setProblem("Enter the webhook's URL (https://...).");
    setProblem(null);
    try {
      const made = await add.mutateAsync(
        info.stepPercent
          ? { kind, threshold: "", stepPercent: threshold, webhookUrl }
          : { kind, threshold: info.threshold ? threshold : "", webhookUrl },
      );
      toast({ title: "Alert rule added", description: `${info.label} → ${made.rule.webhookUrl}` });
      setThreshold("");
      setWebhookUrl("");
      onCreated(made);
    } catch (error) {
      setProblem(problemText(error));
    }
  };

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-busy={add.isPending}
      aria-label="Add alert rule"
      className="grid gap-4 md:grid-cols-[minmax(0,14rem)_minmax(0,12rem)_minmax(0,1fr)_auto] md:items-start"
    >
      <div className="grid gap-2">
        <Label htmlFor={`${id}-kind`}>Alert on</Label>
        <Select value={kind} onValueChange={(value) => setKind(value as AlertKind)}>
          <SelectTrigger id={`${id}-kind`} aria-label="Alert on">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {ALERT_KINDS.map((k) => (
              <SelectItem key={k} value={k}>
                {ALERT_KIND_INFO[k].label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-threshold`} className={limit ? undefined : "text-muted-foreground"}>
          {limit?.label ?? "Threshold"}
        </Label>
        <Input
          id={`${id}-threshold`}
          inputMode="decimal"
          autoComplete="off"
          placeholder={limit ? `e.g. ${limit.example}` : "Not used by this kind"}
          disabled={!limit}
          value={limit ? threshold : ""}
          onChange={(e) => setThreshold(e.target.value)}
          aria-describedby={limit ? `${id}-hint` : undefined}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-url`}>Webhook URL</Label>
        <Input
          id={`${id}-url`}
          type="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://hooks.example.com/usdx"
          value={webhookUrl}
          onChange={(e) => setWebhookUrl(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? errorId : undefined}
        />
      </div>
      {/* Last on a phone (after the hint and any refusal); on a wide screen beside the fields, level with them under a label's height. */}
      <div className="order-last grid gap-2 md:order-none">
        <span aria-hidden className="hidden text-sm leading-none md:block">
          &nbsp;
        </span>
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <Plus className="h-4 w-4" aria-hidden />}
          Add Rule
        </Button>
      </div>
      {limit && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground md:col-span-4">
          {limit.hint}
        </p>
      )}
      {problem && (
        <div className="md:col-span-4">
          <FieldError id={errorId}>{problem}</FieldError>
        </div>
      )}
    </form>
  );
}
