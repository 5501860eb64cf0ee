import { useEffect } from "react";
import { AlertCircle, RotateCw } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/components/ui/toast";
import { copyText } from "@/lib/clipboard";
import { shortAddress } from "@/lib/format";

/** An address that copies itself when clicked (spec: toast 'Address copied'); shortened on phones. */
export function CopyableAddress({ address }: { address: string }) {
  return (
    <button
      type="button"
      title="Click to copy"
      aria-label={`Copy address ${address}`}
      className="cursor-pointer rounded-sm font-mono text-xs text-foreground underline-offset-4 hover:text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      onClick={async () => {
        if (await copyText(address)) toast({ title: "Address copied", description: address });
      }}
    >
      <span className="hidden md:inline">{address}</span>
      <span className="md:hidden">{shortAddress(address)}</span>
    </button>
  );
}

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
