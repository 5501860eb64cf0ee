import { useId, type FormEvent } from "react";
import { Filter, RotateCcw } from "lucide-react";
import { EVENT_FILTERS } from "@common/events";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { FilterDraft, RangeProblems } from "../filters";
import { RangeField } from "./RangeField";

/** The Contract Events filter: event type, From Block, To Block, Reset and Apply (PRODUCT.md section 2). */
export function EventFilterForm({
  draft,
  problems,
  deploymentBlock,
  onChange,
  onApply,
  onReset,
}: {
  draft: FilterDraft;
  problems: RangeProblems;
  deploymentBlock: number;
  onChange(draft: FilterDraft): void;
  onApply(): void;
  onReset(): void;
}) {
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply();
  };
  return (
    <form
      onSubmit={submit}
      noValidate
      className="grid gap-4 rounded-lg border border-border bg-muted/40 p-4 sm:grid-cols-2 xl:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_minmax(0,1fr)_auto] xl:items-start"
    >
      <div className="grid gap-1.5 sm:col-span-2 xl:col-span-1">
        <Label htmlFor={`${id}-type`}>Event Type</Label>
        <Select value={draft.label} onValueChange={(label) => onChange({ ...draft, label })}>
          <SelectTrigger id={`${id}-type`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {EVENT_FILTERS.map((filter) => (
              <SelectItem key={filter.label} value={filter.label}>
                {filter.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <RangeField
        type="block"
        id={`${id}-from`}
        label="From Block"
        placeholder={`${deploymentBlock} (deployment)`}
        value={draft.fromBlock}
        problem={problems.fromBlock}
        onChange={(fromBlock) => onChange({ ...draft, fromBlock })}
      />
      <RangeField
        type="block"
        id={`${id}-to`}
        label="To Block"
        placeholder="Latest"
        value={draft.toBlock}
        problem={problems.toBlock}
        onChange={(toBlock) => onChange({ ...draft, toBlock })}
      />
      {/* Under the fields on narrow screens; in line with them (below their labels) on wide ones. */}
      <div className="flex gap-2 sm:col-span-2 sm:justify-end xl:col-span-1 xl:mt-[1.375rem]">
        <Button type="button" variant="outline" className="flex-1 sm:flex-none" onClick={onReset}>
          <RotateCcw className="h-4 w-4" aria-hidden />
          Reset
        </Button>
        <Button type="submit" className="flex-1 sm:flex-none">
          <Filter className="h-4 w-4" aria-hidden />
          Apply
        </Button>
      </div>
    </form>
  );
}
