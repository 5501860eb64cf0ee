import { useId, type ReactNode } from "react";
import { AlertTriangle } from "lucide-react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { MultiplierGuard } from "@/lib/tx/multiplierGuard";

/**
 * Beside a multiplier field: the change to every balance as it is typed, and, for a decrease or a
 * rise above the bound, the warning and a second field the value must be typed into again (the
 * form's submit stays disabled until the two match exactly).
 */
export function MultiplierStepGuard({
  guard,
  what,
  disabled,
  before,
}: {
  guard: MultiplierGuard;
  /** What is typed again: 'new multiplier' or 'increment'. */
  what: string;
  disabled?: boolean;
  /** Said before the change ('New multiplier 1.0150x:'). */
  before?: ReactNode;
}) {
  const id = useId();
  return (
    <>
      {guard.change && (
        <p aria-live="polite" className="text-sm" data-testid="multiplier-change">
          {before}
          <span className="font-semibold tabular-nums">{guard.change}</span>
        </p>
      )}
      {guard.warning && (
        <div className="grid gap-2 rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm">
          <p role="alert" className="flex items-start gap-1.5">
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0 text-destructive" aria-hidden />
            <span>{guard.warning}</span>
          </p>
          <Label htmlFor={`${id}-retype`}>Type the {what} again to confirm</Label>
          <Input
            id={`${id}-retype`}
            value={guard.retype}
            onChange={(e) => guard.setRetype(e.target.value)}
            inputMode="decimal"
            autoComplete="off"
            spellCheck={false}
            disabled={disabled}
            className="tabular-nums"
          />
        </div>
      )}
    </>
  );
}
