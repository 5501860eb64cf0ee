import { Check, Loader2, X } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { shortAddress } from "@/lib/format";
import { cn } from "@/lib/utils";
import { errorSentence } from "@/lib/api";
import type { Deposit } from "../api";
import { maskedNumber, usd, usdx } from "../format";
import { MintTxLink } from "./MintTxLink";
import { DepositStatusBadge } from "./StatusBadges";

type StepState = "done" | "current" | "upcoming" | "failed";

const time = (iso: string | null) => (iso ? new Date(iso).toLocaleTimeString() : null);

/** Where each of the three steps stands for a deposit's status (PRODUCT.md section 4: pending, processing after 3 s, completed after 8 s). */
function steps(deposit: Deposit): { title: string; detail: string; state: StepState; at: string | null }[] {
  const { status } = deposit;
  const minted = `${usdx(deposit.amountRaw)} ${status === "completed" ? "minted" : "to be minted"} to ${shortAddress(deposit.walletAddress)}`;
  return [
    {
      title: "Requested",
      detail: `${usd(deposit.amount)} from ${deposit.bankAccount.name} (${maskedNumber(deposit.bankAccount.lastFour)})`,
      state: "done",
      at: time(deposit.timestamp),
    },
    {
      title: "Processing",
      detail: "The bank transfer clears and the mint is sent",
      state: status === "pending" ? "upcoming" : status === "processing" ? "current" : "done",
      at: status === "pending" ? null : time(deposit.processingAt),
    },
    status === "failed"
      ? { title: "Failed", detail: deposit.error ?? "The mint failed; no USDX was minted.", state: "failed", at: null }
      : { title: "Completed", detail: minted, state: status === "completed" ? "done" : "upcoming", at: time(deposit.completedAt) },
  ];
}

function StepIcon({ state }: { state: StepState }) {
  const base = "flex h-7 w-7 shrink-0 items-center justify-center rounded-full border-2";
  if (state === "done")
    return (
      <span className={cn(base, "border-success bg-success text-white")}>
        <Check className="h-4 w-4" aria-hidden />
      </span>
    );
  if (state === "failed")
    return (
      <span className={cn(base, "border-destructive bg-destructive text-destructive-foreground")}>
        <X className="h-4 w-4" aria-hidden />
      </span>
    );
  if (state === "current")
    return (
      <span className={cn(base, "border-primary text-primary")}>
        <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
      </span>
    );
  return <span className={cn(base, "border-border bg-card")} />;
}

const STATE_WORDS: Record<StepState, string> = { done: "done", current: "in progress", upcoming: "not yet", failed: "failed" };

/** The deposit just requested, step by step, until it has completed or failed. */
export function DepositProgress({ deposit, pollError }: { deposit: Deposit; pollError: unknown }) {
  const list = steps(deposit);
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between gap-2 space-y-0 pb-4">
        <CardTitle className="text-base">Deposit progress</CardTitle>
        <DepositStatusBadge status={deposit.status} />
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        <ol className="grid grid-cols-1" aria-label="Deposit progress">
          {list.map((step, i) => (
            <li
              key={step.title}
              className="relative flex gap-3 pb-5 last:pb-0"
              aria-current={step.state === "current" ? "step" : undefined}
            >
              {i < list.length - 1 && (
                <span
                  aria-hidden
                  className={cn(
                    "absolute left-[13px] top-7 h-[calc(100%-1.75rem)] w-0.5",
                    step.state === "done" ? "bg-success" : "bg-border",
                  )}
                />
              )}
              <StepIcon state={step.state} />
              <div className="min-w-0 pt-0.5">
                <p
                  className={cn(
                    "text-sm font-medium",
                    step.state === "upcoming" && "text-muted-foreground",
                    step.state === "failed" && "text-destructive",
                  )}
                >
                  {step.title}
                  <span className="sr-only"> ({STATE_WORDS[step.state]})</span>
                  {step.at && <span className="ml-2 text-xs font-normal text-muted-foreground">{step.at}</span>}
                </p>
                <p className={cn("text-sm text-muted-foreground [overflow-wrap:anywhere]", step.state === "failed" && "text-destructive")}>
                  {step.detail}
                </p>
                {step.title === "Completed" && step.state === "done" && deposit.txHash && (
                  <p className="mt-1 text-xs text-muted-foreground">
                    Mint transaction <MintTxLink hash={deposit.txHash} />
                  </p>
                )}
              </div>
            </li>
          ))}
        </ol>
        {pollError !== null && pollError !== undefined && (
          <p role="status" className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
            Could not check on the deposit ({errorSentence(pollError, "Unknown error")}); trying again every second.
          </p>
        )}
      </CardContent>
    </Card>
  );
}
