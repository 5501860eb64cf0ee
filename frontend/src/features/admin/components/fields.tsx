import { useEffect, useId, useRef, type ReactNode } from "react";
import { AlertTriangle, Wallet } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { FieldError } from "@/components/ui/field-error";
import { SafeApprovalNote } from "@/components/SafeApprovalNote";
import { proposeLabel } from "@/lib/safes";
import { cn } from "@/lib/utils";
import type { TxFormStatus } from "@/lib/tx/useTxForm";

/** PRODUCT.md section 9: amount inputs step 0.01, min 0. */
export const AMOUNT_STEP = "0.01";

interface TextFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string;
  /** Shown under the field (a hint, or what the chain says about the address). */
  children?: ReactNode;
  placeholder?: string;
  disabled?: boolean;
  amount?: boolean;
}

/** A labelled input with its problem under it (FieldError) and optional details below. */
export function TextField({ label, value, onChange, error, children, placeholder, disabled, amount }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder ?? (amount ? "0.00" : "0x...")}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        autoComplete="off"
        spellCheck={false}
        className={cn(!amount && "font-mono", error && "border-destructive focus-visible:ring-destructive")}
        {...(amount ? { type: "number", step: AMOUNT_STEP, min: "0", inputMode: "decimal" as const } : {})}
      />
      {error && <FieldError id={errorId}>{error}</FieldError>}
      {children}
    </div>
  );
}

/** A small row of radio options (Grant / Revoke, Block / Unblock). */
export function ChoiceField<T extends string>({
  label,
  value,
  onChange,
  options,
  disabled,
}: {
  label: string;
  value: T;
  onChange(value: T): void;
  options: { value: T; label: string }[];
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="grid gap-1.5">
      <Label id={id}>{label}</Label>
      <RadioGroup
        aria-labelledby={id}
        value={value}
        onValueChange={(v) => onChange(v as T)}
        disabled={disabled}
        className="flex flex-wrap gap-4"
      >
        {options.map((option) => (
          <div key={option.value} className="flex items-center gap-2">
            <RadioGroupItem value={option.value} id={`${id}-${option.value}`} />
            <Label htmlFor={`${id}-${option.value}`} className="cursor-pointer font-normal">
              {option.label}
            </Label>
          </div>
        ))}
      </RadioGroup>
    </div>
  );
}

/** The destructive action's second step, in place of the submit button; Cancel has the focus. */
function ConfirmStep({ form }: { form: TxFormStatus }) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => cancelRef.current?.focus(), []);
  const pending = form.pending!;
  return (
    <div
      role="group"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-desc`}
      className="grid gap-3 rounded-md border border-destructive/40 bg-destructive/5 p-3"
    >
      <div className="flex gap-2">
        <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0 text-destructive" aria-hidden />
        <div className="grid gap-1">
          <p id={`${id}-title`} className="text-sm font-semibold">
            {pending.title}
          </p>
          <p id={`${id}-desc`} className="text-sm text-muted-foreground">
            {pending.description}
          </p>
        </div>
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button ref={cancelRef} type="button" variant="outline" size="sm" onClick={form.cancel}>
          Cancel
        </Button>
        <Button type="button" variant="destructive" size="sm" onClick={form.confirm}>
          {pending.confirmLabel}
        </Button>
      </div>
    </div>
  );
}

/**
 * The submit row: the button ('Processing...' while the runner works; disabled while busy, when no
 * wallet is connected, or until the required fields are filled), or the confirm step. A form that
 * proposes to a Safe says so on its button ('Propose to Operations Safe') and under it.
 */
export function FormFooter({
  form,
  label,
  incomplete = false,
  notConnected,
}: {
  form: TxFormStatus;
  label: string;
  incomplete?: boolean;
  notConnected: string;
}) {
  if (form.pending) return <ConfirmStep form={form} />;
  return (
    <div className="grid gap-2">
      <Button
        type="submit"
        disabled={form.busy || !form.connected || incomplete}
        // A Safe's name is the deployment's (up to 64 characters): its label may wrap on a phone.
        className={cn("w-full sm:w-auto sm:justify-self-start", form.safe && "h-auto min-h-10 whitespace-normal")}
      >
        {form.busy ? "Processing..." : form.safe ? proposeLabel(form.safe) : label}
      </Button>
      {form.safe && <SafeApprovalNote safe={form.safe} />}
      {!form.connected && (
        <p className="flex items-center gap-1.5 text-xs text-muted-foreground">
          <Wallet className="h-3.5 w-3.5" aria-hidden />
          Wallet not connected. {notConnected}.
        </p>
      )}
    </div>
  );
}
