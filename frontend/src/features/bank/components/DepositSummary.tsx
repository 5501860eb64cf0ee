import type { ReactNode } from "react";
import { formatTokenAmount } from "@common/amounts";
import { LoadFailed } from "@/components/states";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { errorSentence } from "@/lib/api";
import { shortAddress } from "@/lib/format";
import type { BankFaucetLimits, BankTerms, BankWallet } from "../api";
import { parseCents, receivedUsdx } from "../depositRules";
import { usd, usdx } from "../format";

interface DepositSummaryProps {
  terms: { data: BankTerms | undefined; error: unknown; isFetching: boolean; refetch(): unknown };
  amount: string;
  wallet: BankWallet | undefined;
}

function Row({ label, children, strong = false }: { label: string; children: ReactNode; strong?: boolean }) {
  return (
    <div
      className={
        strong
          ? "flex items-baseline justify-between gap-4 pt-3 text-base font-semibold"
          : "flex items-baseline justify-between gap-4 text-sm"
      }
    >
      <dt className={strong ? undefined : "text-muted-foreground"}>{label}</dt>
      <dd className="min-w-0 text-right tabular-nums [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

/** Test faucet: the daily caps and what is left today, for this user and for everyone (above the summary, so a deposit's room shows first). */
function FaucetLimits({ limits }: { limits: BankFaucetLimits }) {
  return (
    <div className="mb-4 grid grid-cols-1 gap-2.5 border-b border-border pb-4">
      <dl className="grid grid-cols-1 gap-2.5" aria-label="Test faucet limits">
        <Row label="Daily limit (you)">{limits.perUserDaily} USDX</Row>
        <Row label="Left today (you)">
          <span data-testid="faucet-user-left">{limits.userLeftToday} USDX</span>
        </Row>
        <Row label="Left today (all users)">
          <span data-testid="faucet-total-left">
            {limits.totalLeftToday} of {limits.totalDaily} USDX
          </span>
        </Row>
      </dl>
      <p className="text-xs text-muted-foreground">
        A test faucet: at most {limits.perUserDaily} USDX and {limits.perUserDailyDeposits} deposits a day per user, and {limits.totalDaily}{" "}
        USDX a day in all. Days are UTC: the counts start over at 00:00 UTC; failed deposits do not count.
      </p>
    </div>
  );
}

/** Fee, rate and what arrives, from the server's terms (GET /api/bank/terms: $0.00 and 1 USD = 1 USDX). */
export function DepositSummary({ terms, amount, wallet }: DepositSummaryProps) {
  const cents = parseCents(amount);
  const shownAmount = usd(formatTokenAmount(cents ?? 0n, 2, 2));
  const received = terms.data ? receivedUsdx(amount, terms.data) : null;
  return (
    <Card>
      <CardHeader className="pb-4">
        <CardTitle className="text-base">Summary</CardTitle>
      </CardHeader>
      <CardContent>
        {terms.data?.faucet && <FaucetLimits limits={terms.data.faucet} />}
        {terms.data ? (
          <dl className="grid grid-cols-1 gap-2.5" aria-label="Deposit summary">
            <Row label="Deposit amount">{shownAmount}</Row>
            <Row label="Fee">{usd(terms.data.fee)}</Row>
            <Row label="Rate">1 USD = {terms.data.rate} USDX</Row>
            <Row label="Arrives">in about {Math.round(terms.data.completeMs / 1000)} seconds</Row>
            {wallet && (
              <Row label="To">
                <span title={wallet.address}>
                  {wallet.name} <span className="font-mono text-xs">{shortAddress(wallet.address)}</span>
                </span>
              </Row>
            )}
            <div className="border-t border-border">
              <Row label="You receive" strong>
                <span data-testid="you-receive">{usdx(received ?? 0n)}</span>
              </Row>
            </div>
          </dl>
        ) : terms.error ? (
          <LoadFailed
            title="Could not load the deposit terms"
            sentence={errorSentence(terms.error, "Unknown error")}
            onRetry={() => void terms.refetch()}
            retrying={terms.isFetching}
          />
        ) : (
          <div className="flex justify-center py-4">
            <Spinner label="Loading the deposit terms" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
