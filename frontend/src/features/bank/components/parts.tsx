import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { AlertCircle, ExternalLink, RotateCw } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useConfig } from "@/lib/config";
import { isExternal, txUrl } from "@/lib/explorer";
import { shortAddress } from "@/lib/format";
import { cn } from "@/lib/utils";
import { errorSentence } from "@/lib/api";
import type { BankAccount, DepositStatus } from "../api";

/** A form's problem under the field it concerns; announced as it appears. */
export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className="flex items-start gap-1.5 text-sm text-destructive">
      <AlertCircle className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden />
      <span className="min-w-0 [overflow-wrap:anywhere]">{children}</span>
    </p>
  );
}

export function Loading({ label }: { label: string }) {
  return (
    <div className="flex items-center justify-center gap-2 py-10 text-sm text-muted-foreground">
      <Spinner label={label} /> {label}...
    </div>
  );
}

/** A failed read, in the server's words, with Retry. */
export function LoadFailed({ title, error, onRetry, retrying }: { title: string; error: unknown; onRetry(): void; retrying: boolean }) {
  return (
    <Alert variant="destructive">
      <AlertCircle className="h-4 w-4" aria-hidden />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 [overflow-wrap:anywhere]">{errorSentence(error, "Unknown error")}</span>
        <Button type="button" size="sm" variant="outline" onClick={onRetry} disabled={retrying}>
          <RotateCw className={cn("h-4 w-4", retrying && "animate-spin")} aria-hidden />
          Retry
        </Button>
      </AlertDescription>
    </Alert>
  );
}

export function EmptyState({ icon, title, hint, children }: { icon: ReactNode; title: string; hint: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 px-4 py-10 text-center">
      <div className="rounded-full bg-muted p-3 text-muted-foreground [&>svg]:h-6 [&>svg]:w-6">{icon}</div>
      <p className="font-medium">{title}</p>
      <p className="max-w-sm text-sm text-muted-foreground">{hint}</p>
      {children && <div className="mt-2">{children}</div>}
    </div>
  );
}

export function AccountStatusBadge({ status }: { status: BankAccount["status"] }) {
  return status === "verified" ? (
    <Badge variant="success">Verified</Badge>
  ) : (
    <Badge variant="secondary" className="gap-1">
      <Spinner className="h-3 w-3" label="Verifying" /> Pending
    </Badge>
  );
}

const DEPOSIT_BADGES: Record<DepositStatus, { label: string; variant: "secondary" | "outline" | "success" | "destructive" }> = {
  pending: { label: "Pending", variant: "secondary" },
  processing: { label: "Processing", variant: "outline" },
  completed: { label: "Completed", variant: "success" },
  failed: { label: "Failed", variant: "destructive" },
};

export function DepositStatusBadge({ status }: { status: DepositStatus }) {
  const { label, variant } = DEPOSIT_BADGES[status];
  return (
    <Badge variant={variant} className="whitespace-nowrap">
      {label}
    </Badge>
  );
}

/** The mint's transaction: Sepolia's explorer in a new tab, or the dashboard's own view on the local chain. */
export function TxLink({ hash, className }: { hash: string; className?: string }) {
  const config = useConfig();
  const href = txUrl(config, hash);
  const classes = cn(
    "inline-flex items-center gap-1 rounded-sm font-mono text-xs text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
    className,
  );
  const label = `Mint transaction ${hash}`;
  return isExternal(config) ? (
    <a href={href} target="_blank" rel="noreferrer" className={classes} aria-label={label} title={hash}>
      {shortAddress(hash)}
      <ExternalLink className="h-3 w-3 opacity-60" aria-hidden />
    </a>
  ) : (
    <Link to={href} className={classes} aria-label={label} title={hash}>
      {shortAddress(hash)}
    </Link>
  );
}
