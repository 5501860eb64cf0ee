import { Link } from "react-router-dom";
import { CheckCircle2, ExternalLink, XCircle } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Progress } from "@/components/ui/progress";
import { Spinner } from "@/components/ui/spinner";
import { useConfig } from "@/lib/config";
import { groupDigits } from "@/lib/format";
import { isExternal, txUrl } from "@/lib/explorer";
import { useTxModal } from "@/lib/tx/store";

const LINK = "inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline";

const TITLES = {
  checking: "Checking transaction",
  pending: "Transaction pending",
  confirming: "Transaction confirming",
  success: "Transaction confirmed",
  error: "Transaction failed",
  "not-sent": "Transaction not sent",
} as const;

/**
 * PRODUCT.md section 2's transaction status modal: pending, success (explorer link), error, Close. On
 * Sepolia a mined transaction is 'confirming' until the blocks on top of it make it final. Before
 * the wallet is asked, 'checking' (the dry run); a write it stops is 'not sent', with the reason.
 */
export function TransactionStatusModal() {
  const config = useConfig();
  const { isOpen, status, errorMessage, transactionHash, action, confirmations, hide } = useTxModal();
  const link = transactionHash ? txUrl(config, transactionHash) : null;
  const external = isExternal(config);
  return (
    <Dialog open={isOpen} onOpenChange={(open) => !open && hide()}>
      <DialogContent className="max-w-md" aria-describedby="tx-status-description">
        <DialogHeader>
          <DialogTitle>{TITLES[status]}</DialogTitle>
          {action && <DialogDescription>{action}</DialogDescription>}
        </DialogHeader>
        <div id="tx-status-description" className="flex flex-col items-center gap-3 py-2 text-center text-sm">
          {status === "checking" && (
            <>
              <Spinner className="h-8 w-8" label="Checking the transaction" />
              <p>Checking the transaction against the latest block...</p>
            </>
          )}
          {status === "pending" && (
            <>
              <Spinner className="h-8 w-8" label="Waiting for the transaction" />
              <p>{transactionHash ? "Waiting for the transaction to be mined..." : "Confirm the transaction in your wallet..."}</p>
            </>
          )}
          {status === "confirming" && confirmations && (
            <>
              <Spinner className="h-8 w-8" label="Waiting for confirmations" />
              <p>
                Included in block {groupDigits(String(confirmations.block))}. Waiting for confirmations: {confirmations.seen} of{" "}
                {confirmations.needed}...
              </p>
              <Progress
                className="w-48"
                value={confirmations.seen}
                max={confirmations.needed}
                label="Confirmations"
                valueText={`${confirmations.seen} of ${confirmations.needed} confirmations`}
              />
            </>
          )}
          {status === "success" && (
            <>
              <CheckCircle2 className="h-10 w-10 text-success" aria-hidden />
              <p>Your transaction was confirmed.</p>
            </>
          )}
          {(status === "error" || status === "not-sent") && (
            <>
              <XCircle className="h-10 w-10 text-destructive" aria-hidden />
              {/* A reason may name a 42-character address: it must wrap on a phone, not push the modal wider. */}
              <p role="alert" className="[overflow-wrap:anywhere]">
                {errorMessage || "Something went wrong with your transaction."}
              </p>
            </>
          )}
          {link && external && (
            <a href={link} target="_blank" rel="noreferrer" className={LINK}>
              View on block explorer <ExternalLink className="h-3.5 w-3.5" aria-hidden />
            </a>
          )}
          {link && !external && (
            <Link to={link} onClick={hide} className={LINK}>
              View transaction <ExternalLink className="h-3.5 w-3.5" aria-hidden />
            </Link>
          )}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={hide}>
            Close
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
