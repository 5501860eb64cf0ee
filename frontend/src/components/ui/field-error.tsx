import { AlertCircle } from "lucide-react";

/** A form's problem under the field it concerns; announced as it appears. */
export function FieldError({ id, children }: { id: string; children: string }) {
  return (
    <p id={id} role="alert" className="flex items-start gap-1.5 text-sm text-destructive [overflow-wrap:anywhere]">
      <AlertCircle className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden />
      {children}
    </p>
  );
}
