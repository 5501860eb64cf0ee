import { forwardRef, useState, type InputHTMLAttributes, type ReactNode } from "react";
import { AlertCircle, Eye, EyeOff, Loader2 } from "lucide-react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { cn } from "@/lib/utils";

/** Focus ring for links and tab triggers, matching the buttons and inputs. */
export const focusRing = "rounded-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2";

export const linkClass = cn("text-sm font-medium text-primary underline-offset-4 hover:underline", focusRing);

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id"> {
  id: string;
  label: string;
  invalid?: boolean;
  /** The id of the form's error message, announced with the field when it is invalid. */
  errorId?: string;
}

/** A labelled input; an invalid field is marked for assistive technology and tinted. */
export const Field = forwardRef<HTMLInputElement, FieldProps>(({ id, label, invalid, errorId, className, type, ...props }, ref) => {
  const isPassword = type === "password";
  const [visible, setVisible] = useState(false);
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="relative">
        <Input
          ref={ref}
          id={id}
          type={isPassword && visible ? "text" : type}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid && errorId ? errorId : undefined}
          className={cn("h-11", isPassword && "pr-11", invalid && "border-destructive focus-visible:ring-destructive", className)}
          {...props}
        />
        {isPassword && (
          // Lets people check a password before sending it; a plain button so Enter still submits the form.
          <button
            type="button"
            onClick={() => setVisible((v) => !v)}
            aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
            aria-controls={id}
            className={cn(
              "absolute inset-y-0 right-0 flex w-11 items-center justify-center text-muted-foreground hover:text-foreground",
              focusRing,
            )}
          >
            {visible ? <EyeOff className="h-4 w-4" aria-hidden /> : <Eye className="h-4 w-4" aria-hidden />}
          </button>
        )}
      </div>
    </div>
  );
});
Field.displayName = "Field";

/** The email field every sign-in form starts with. */
export function EmailField({
  value,
  onChange,
  ...props
}: Omit<FieldProps, "label" | "type" | "onChange" | "value"> & { value: string; onChange(value: string): void }) {
  return (
    <Field
      label="Email"
      type="email"
      autoComplete="email"
      inputMode="email"
      placeholder="you@example.com"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      {...props}
    />
  );
}

/** The form's inline error, announced as soon as it appears. */
export function FormError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <div
      id={id}
      role="alert"
      className="flex items-start gap-2 rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2.5 text-sm text-destructive"
    >
      <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <p>{children}</p>
    </div>
  );
}

/** A submit button's label: the busy text with a spinner while working (the spinner is not read out). */
export function BusyLabel({ busy, idle, working }: { busy: boolean; idle: string; working: string }) {
  return busy ? (
    <>
      <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
      {working}
    </>
  ) : (
    <>{idle}</>
  );
}

/** The product mark, as in the page header. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <span
      aria-hidden
      className={cn(
        "flex h-9 w-9 items-center justify-center rounded-lg bg-primary text-base font-semibold text-primary-foreground shadow-sm",
        className,
      )}
    >
      $
    </span>
  );
}
