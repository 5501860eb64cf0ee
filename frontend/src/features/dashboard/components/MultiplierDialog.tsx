import { Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import type { TxForm } from "@/lib/tx/useTxForm";
import { cn } from "@/lib/utils";
import { MIN_REWARD_MULTIPLIER, type MultiplierOperation } from "@common/token";
import { shownMultiplier } from "../figures";
import { MultiplierStepGuard } from "@/components/MultiplierStepGuard";
import { FieldError } from "@/components/ui/field-error";
import { SafeApprovalNote } from "@/components/SafeApprovalNote";
import { proposeLabel } from "@/lib/safes";
import { useMultiplierDialog, useMultiplierForm } from "../hooks/useMultiplierForm";

type Operation = MultiplierOperation;

/** PRODUCT.md section 2's labels, placeholders, hints and buttons for each operation. */
const MODES: Record<Operation, { option: string; label: string; placeholder: string; hint: string; submit: string }> = {
  set: {
    option: "Set new value",
    label: "New Multiplier Value",
    placeholder: "1.0",
    hint: "Sets the absolute value of the multiplier",
    submit: "Set Value",
  },
  add: {
    option: "Add to current",
    label: "Increment Amount",
    placeholder: "0.01",
    hint: "Adds this value to the current multiplier",
    submit: "Add Value",
  },
};

interface MultiplierDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  connected: boolean;
  /** The multiplier now (1e18 = 1.0); undefined until read. */
  current: bigint | undefined;
}

/** 'Update Reward Multiplier' (PRODUCT.md section 2). The form mounts with the dialog, so each opening starts from the defaults. */
export function MultiplierDialog({ open, onOpenChange, connected, current }: MultiplierDialogProps) {
  // The runner is the dialog's, not the form's: the dialog may not close while the form is busy.
  const { form, close, openChange } = useMultiplierDialog(connected, onOpenChange);
  return (
    <Dialog open={open} onOpenChange={openChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Update Reward Multiplier</DialogTitle>
          <DialogDescription>
            The reward multiplier controls the conversion between tokens and shares: every balance is its shares times the multiplier, so
            changing it changes all balances at once.
          </DialogDescription>
        </DialogHeader>
        <MultiplierForm form={form} current={current} onDone={close} />
      </DialogContent>
    </Dialog>
  );
}

function MultiplierForm({ form, current, onDone }: { form: TxForm<"value">; current: bigint | undefined; onDone(): void }) {
  const { operation, choose, value, setValue, busy, problem, next, guard, submit } = useMultiplierForm(form, current, onDone);
  const mode = MODES[operation];

  return (
    <form onSubmit={submit} noValidate aria-busy={busy} className="grid gap-4">
      <div className="flex items-baseline justify-between gap-2 rounded-md bg-muted px-3 py-2 text-sm">
        <span className="text-muted-foreground">Current multiplier</span>
        <span className="font-semibold tabular-nums" data-testid="current-multiplier">
          {current !== undefined ? shownMultiplier(current) : "Unknown"}
        </span>
      </div>

      <RadioGroup
        value={operation}
        onValueChange={(v) => choose(v as Operation)}
        aria-label="Update type"
        className="grid-cols-1 gap-3 sm:grid-cols-2"
        disabled={busy}
      >
        {(Object.keys(MODES) as Operation[]).map((op) => (
          <Label
            key={op}
            htmlFor={`multiplier-${op}`}
            className={cn(
              "flex cursor-pointer items-center gap-2 rounded-md border border-border px-3 py-2.5 font-normal",
              operation === op && "border-primary bg-accent/40",
            )}
          >
            <RadioGroupItem id={`multiplier-${op}`} value={op} />
            {MODES[op].option}
          </Label>
        ))}
      </RadioGroup>

      <div className="grid gap-2">
        <Label htmlFor="multiplier-value">{mode.label}</Label>
        <Input
          id="multiplier-value"
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          placeholder={mode.placeholder}
          className={cn("tabular-nums", problem && "border-destructive focus-visible:ring-destructive")}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={cn("multiplier-hint", problem && "multiplier-error")}
          disabled={busy}
        />
        <p id="multiplier-hint" className="text-xs text-muted-foreground">
          {mode.hint}
        </p>
        {problem && <FieldError id="multiplier-error">{problem}</FieldError>}
      </div>

      {next !== null && next < MIN_REWARD_MULTIPLIER ? (
        <p aria-live="polite" className="rounded-md border border-destructive/50 bg-destructive/5 px-3 py-2 text-sm text-destructive">
          The contract only accepts a multiplier of 1.0 or more; {shownMultiplier(next)} would be refused.
        </p>
      ) : (
        // What the change means for holders, before the oracle signs it; a decrease or a big step is typed again.
        <MultiplierStepGuard
          guard={guard}
          what={operation === "set" ? "new multiplier" : "increment"}
          disabled={busy}
          before={
            next !== null && (
              <>
                New multiplier <span className="font-semibold tabular-nums">{shownMultiplier(next)}</span>:{" "}
              </>
            )
          }
        />
      )}

      {form.safe && <SafeApprovalNote safe={form.safe} />}

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy || guard.blocked} className={cn(form.safe && "h-auto min-h-10 whitespace-normal")}>
          {busy && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
          {busy ? "Processing..." : form.safe ? proposeLabel(form.safe) : mode.submit}
        </Button>
      </DialogFooter>
    </form>
  );
}
