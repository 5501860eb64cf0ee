import { Link } from "react-router-dom";
import { Users } from "lucide-react";
import { safeApprovalLine, type SafeInfo } from "@/lib/safes";
import { cn } from "@/lib/utils";

/**
 * Under a form that proposes to a Safe instead of sending: how many owners must approve before the
 * call runs, and where they do ('Operations Safe needs 2 of 3 owners' approvals before this runs.').
 */
export function SafeApprovalNote({ safe, className }: { safe: SafeInfo; className?: string }) {
  return (
    <p className={cn("flex items-start gap-1.5 text-xs text-muted-foreground", className)}>
      <Users className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden />
      <span>
        {safeApprovalLine(safe)} Owners approve it on{" "}
        <Link to="/approvals" className="font-medium text-primary underline-offset-4 hover:underline">
          Approvals
        </Link>
        .
      </span>
    </p>
  );
}
