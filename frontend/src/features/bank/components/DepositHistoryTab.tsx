import { History } from "lucide-react";
import { EmptyState, ReadStates } from "@/components/states";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { relativeTime, shortAddress } from "@/lib/format";
import { useDeposits } from "../api";
import { isoSeconds, maskedNumber, usd } from "../format";
import { MintTxLink } from "./MintTxLink";
import { DepositStatusBadge } from "./StatusBadges";

/** Deposit History: newest first, the status early so a phone shows it without scrolling; it refreshes itself while a deposit in it is under way. */
export function DepositHistoryTab() {
  const deposits = useDeposits();

  const body = (
    <ReadStates
      query={deposits}
      failed="Could not load your deposits"
      loading="Loading deposits"
      isEmpty={(list) => list.length === 0}
      empty={
        <EmptyState
          icon={<History />}
          title="No deposits yet"
          hint="Deposits you make under Deposit USD appear here, with the transaction that minted their USDX."
        />
      }
    >
      {(list) => (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Requested</TableHead>
              <TableHead className="text-right">Amount</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>From account</TableHead>
              <TableHead>To wallet</TableHead>
              <TableHead>Mint transaction</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {list.map((deposit) => (
              <TableRow key={deposit.id}>
                <TableCell className="whitespace-nowrap" title={new Date(deposit.timestamp).toLocaleString()}>
                  {relativeTime(isoSeconds(deposit.timestamp))}
                </TableCell>
                <TableCell className="whitespace-nowrap text-right font-medium tabular-nums">{usd(deposit.amount)}</TableCell>
                <TableCell>
                  <div className="flex flex-col items-start gap-1">
                    <DepositStatusBadge status={deposit.status} />
                    {deposit.status === "failed" && deposit.error && (
                      <span className="max-w-xs text-xs text-destructive [overflow-wrap:anywhere]">{deposit.error}</span>
                    )}
                  </div>
                </TableCell>
                <TableCell className="whitespace-nowrap">
                  {deposit.bankAccount.name}{" "}
                  <span className="font-mono text-xs text-muted-foreground">{maskedNumber(deposit.bankAccount.lastFour)}</span>
                </TableCell>
                <TableCell className="font-mono text-xs" title={deposit.walletAddress}>
                  {shortAddress(deposit.walletAddress)}
                </TableCell>
                <TableCell>
                  {deposit.txHash ? <MintTxLink hash={deposit.txHash} /> : <span className="text-muted-foreground">—</span>}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </ReadStates>
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Deposit History</CardTitle>
        <CardDescription>Every deposit you have requested and what became of it.</CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
