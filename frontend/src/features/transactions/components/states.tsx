import type { ReactNode } from "react";
import { AlertCircle, RotateCw } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";

export function Loading({ label }: { label: string }) {
  return (
    <div className="flex items-center justify-center gap-2 py-12 text-sm text-muted-foreground">
      <Spinner label={label} /> {label}...
    </div>
  );
}

/** An empty list: an icon, the sentence, and a hint on what would fill it. */
export function Empty({ icon, children, hint }: { icon: ReactNode; children: ReactNode; hint?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 px-4 py-12 text-center">
      <span className="flex h-11 w-11 items-center justify-center rounded-full bg-muted text-muted-foreground">{icon}</span>
      <p className="text-sm font-medium">{children}</p>
      {hint && <p className="max-w-md text-sm text-muted-foreground">{hint}</p>}
    </div>
  );
}

/** A failed read, inline: a title, what went wrong, and the way to try again. */
export function FailureAlert({ title, message, action }: { title: string; message: string; action: ReactNode }) {
  return (
    <Alert variant="destructive">
      <AlertCircle className="h-4 w-4" aria-hidden />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription className="flex flex-wrap items-center justify-between gap-3">
        <span className="min-w-0 [overflow-wrap:anywhere]">{message}</span>
        {action}
      </AlertDescription>
    </Alert>
  );
}

export function RetryButton({ onClick, busy, children = "Retry" }: { onClick(): void; busy: boolean; children?: ReactNode }) {
  return (
    <Button type="button" size="sm" variant="outline" className="border-destructive/40 bg-card text-foreground" onClick={onClick} disabled={busy}>
      <RotateCw className={busy ? "h-4 w-4 animate-spin" : "h-4 w-4"} aria-hidden />
      {children}
    </Button>
  );
}
