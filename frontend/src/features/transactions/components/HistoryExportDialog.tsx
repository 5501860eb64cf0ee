import { useId, useState, type FormEvent } from "react";
import { Download } from "lucide-react";
import { ExportIcon, useCsvExport } from "@/components/ExportButton";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { cn } from "@/lib/utils";
import { historyExportUrl } from "../api/history";
import { RangeField } from "./RangeField";
import { checkExportRange, EMPTY_EXPORT_DRAFT, type ExportDraft, type ExportProblems, type ExportScope } from "../exportRange";

const SCOPES: { value: ExportScope; label: string }[] = [
  { value: "all", label: "All transactions" },
  { value: "blocks", label: "A block range" },
  { value: "dates", label: "A date range (UTC)" },
];

/**
 * 'Export CSV' on 'Your Transactions': the account's transfers, mints and burns as a CSV for the
 * books, all of them or a block or date range (each end inclusive), oldest first.
 */
export function HistoryExportDialog({ account }: { account: string }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<ExportDraft>(EMPTY_EXPORT_DRAFT);
  const [problems, setProblems] = useState<ExportProblems>({});
  const { busy, run } = useCsvExport();

  const change = (next: Partial<ExportDraft>) => {
    setDraft({ ...draft, ...next });
    setProblems({});
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkExportRange(draft);
    if (!checked.ok) {
      setProblems(checked.problems);
      return;
    }
    if (await run(historyExportUrl(account, checked.range), `usdx_history_${account}.csv`)) setOpen(false);
  };
  const blocks = draft.scope === "blocks";

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setProblems({});
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <Download className="h-4 w-4" aria-hidden />
          Export CSV
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Export transactions</DialogTitle>
          <DialogDescription className="[overflow-wrap:anywhere]">
            A CSV of the transfers, mints and burns of {account}, oldest first, with amounts in USDX.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-4">
          <RadioGroup
            value={draft.scope}
            onValueChange={(scope) => change({ scope: scope as ExportScope })}
            aria-label="Transactions to export"
            disabled={busy}
          >
            {SCOPES.map((scope) => (
              <Label
                key={scope.value}
                htmlFor={`${id}-${scope.value}`}
                className={cn(
                  "flex cursor-pointer items-center gap-2 rounded-md border border-border px-3 py-2.5 font-normal",
                  draft.scope === scope.value && "border-primary bg-accent/40",
                )}
              >
                <RadioGroupItem id={`${id}-${scope.value}`} value={scope.value} />
                {scope.label}
              </Label>
            ))}
          </RadioGroup>
          {draft.scope !== "all" && (
            <div className="grid gap-3 sm:grid-cols-2">
              <RangeField
                id={`${id}-from`}
                label={blocks ? "From Block" : "From Date"}
                type={blocks ? "block" : "date"}
                value={blocks ? draft.fromBlock : draft.fromDate}
                problem={problems.from}
                onChange={(value) => change(blocks ? { fromBlock: value } : { fromDate: value })}
              />
              <RangeField
                id={`${id}-to`}
                label={blocks ? "To Block" : "To Date"}
                type={blocks ? "block" : "date"}
                value={blocks ? draft.toBlock : draft.toDate}
                problem={problems.to}
                onChange={(value) => change(blocks ? { toBlock: value } : { toDate: value })}
              />
              <p className="text-xs text-muted-foreground sm:col-span-2">Both ends are included; leave one empty for an open range.</p>
            </div>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              <ExportIcon busy={busy} />
              {busy ? "Exporting..." : "Export CSV"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
