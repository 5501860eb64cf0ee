import { Link } from "react-router-dom";
import { ExternalLink } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Spinner } from "@/components/ui/spinner";
import { useConfig } from "@/lib/config";
import { isExternal, txUrl } from "@/lib/explorer";
import { shortAddress } from "@/lib/format";
import { cn } from "@/lib/utils";
import type { BankAccount, DepositStatus } from "../api";

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
