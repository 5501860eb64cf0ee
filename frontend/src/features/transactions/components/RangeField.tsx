import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { cn } from "@/lib/utils";

/** One end of a range, as the events filter and the history export ask for it: a block number or a day. */
export function RangeField({
  id,
  label,
  type,
  placeholder,
  value,
  problem,
  onChange,
}: {
  id: string;
  label: string;
  type: "block" | "date";
  placeholder?: string;
  value: string;
  problem?: string;
  onChange(value: string): void;
}) {
  return (
    <div className="grid content-start gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {/* A block is text with a numeric keypad: a number input would drop '12.5' or '-3' silently instead of letting us say what is wrong. */}
      <Input
        id={id}
        type={type === "date" ? "date" : "text"}
        inputMode={type === "block" ? "numeric" : undefined}
        autoComplete="off"
        placeholder={placeholder ?? (type === "block" ? "Block number" : "YYYY-MM-DD")}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-error` : undefined}
        className={cn("tabular-nums", problem && "border-destructive")}
      />
      {problem && <FieldError id={`${id}-error`}>{problem}</FieldError>}
    </div>
  );
}
