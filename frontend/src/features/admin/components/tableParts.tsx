import { useEffect } from "react";
import { CopyableAddress } from "@/components/CopyableAddress";

export { CopyableAddress };
import { AlertCircle, RotateCw } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/components/ui/toast";


export function TableLoading({ label }: { label: string }) {
  return (
    <div className="flex items-center justify-center gap-2 py-8 text-sm text-muted-foreground">
      <Spinner label={label} /> {label}...
    </div>
  );
}

/** A failed list read: the spec's toast once per failure, and the same words inline with Retry. */
export function LoadError({ title, error, errorAt, onRetry, retrying }: { title: string; error: Error | null; errorAt: number; onRetry(): void; retrying: boolean }) {
  const message = error?.message;
  useEffect(() => {
    if (errorAt) toast({ title, description: message, variant: "destructive" });
  }, [title, message, errorAt]);
  return (
    <Alert variant="destructive">
      <AlertCircle className="h-4 w-4" aria-hidden />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 [overflow-wrap:anywhere]">{message || "Unknown error"}</span>
        <Button type="button" size="sm" variant="outline" onClick={onRetry} disabled={retrying}>
          <RotateCw className={retrying ? "h-4 w-4 animate-spin" : "h-4 w-4"} aria-hidden />
          Retry
        </Button>
      </AlertDescription>
    </Alert>
  );
}
