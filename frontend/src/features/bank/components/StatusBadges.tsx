import { Badge } from "@/components/ui/badge";
import { Spinner } from "@/components/ui/spinner";
import type { BankAccount, DepositStatus } from "../api";

/** A bank account's state: Verified, or Pending while the mock bank verifies it. */
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
