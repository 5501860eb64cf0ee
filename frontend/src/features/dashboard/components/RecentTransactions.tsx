import { useEffect } from "react";
import { Link } from "react-router-dom";
import { ArrowRight } from "lucide-react";
import { EmptyState, LoadFailed } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useConfig } from "@/lib/config";
import { addressUrl, txUrl } from "@/lib/explorer";
import { groupDigits, movedNote, relativeTime, shortAddress } from "@/lib/format";
import { exactTokenAmount } from "@common/amounts";
import { useRecentTransactions, type HistoryEntry } from "../api/queries";
import { errorMessage, shownUsdx } from "../figures";
import { useNow } from "@/lib/useNow";
import { ExplorerLink } from "@/components/ExplorerLink";
import { MovedNote } from "@/components/MovedNote";
import { pendingFor, usePendingEntries, type PendingEntry } from "@/lib/tx/pending";
import { RECENT_TRANSACTIONS } from "@common/events";

const ZERO_ADDRESS = /^0x0{40}$/i;

/**
 * A moved amount that differs from its event's: in full (at least two decimals), since rounding
 * it to two would hide the difference the note explains ('0.000000000000000001').
 */
function exactMoved(value: bigint): string {
  const [whole, fraction = ""] = exactTokenAmount(value).split(".");
  return groupDigits(`${whole}.${fraction.padEnd(2, "0")}`);
}

/** PRODUCT.md section 2: the connected account's latest 5 transfers, mints and burns, and 'View All'. */
export function RecentTransactions({ address }: { address: string | null }) {
  const now = useNow();
  const pending = usePendingEntries();
  const mine = address ? pendingFor(pending.entries, address, now) : [];
  const query = useRecentTransactions(address, mine.length > 0);
  const items = query.data?.items;
  // What the index now shows is no longer pending.
  useEffect(() => {
    if (!items) return;
    const indexed = new Set(items.map((i) => i.hash.toLowerCase()));
    const seen = pending.entries.filter((e) => indexed.has(e.hash.toLowerCase())).map((e) => e.hash);
    if (seen.length > 0) pending.remove(seen);
  }, [items, pending]);
  const waiting = mine.filter((e) => !items?.some((i) => i.hash.toLowerCase() === e.hash.toLowerCase()));
  return (
    <Card className="min-w-0">
      <CardHeader className="flex-row items-start justify-between gap-2 space-y-0">
        <div className="space-y-1.5">
          <CardTitle className="text-base">Recent Transactions</CardTitle>
          <CardDescription>Your latest transfers, mints and burns.</CardDescription>
        </div>
        <Button asChild variant="outline" size="sm">
          <Link to="/transactions">
            View All <ArrowRight className="h-4 w-4" aria-hidden />
          </Link>
        </Button>
      </CardHeader>
      <CardContent>
        {address === null ? (
          <EmptyState title="Connect your wallet to view your transaction history." />
        ) : query.isLoading ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading recent transactions" />
          </div>
        ) : query.isError ? (
          <LoadFailed
            title="Failed to load transactions"
            sentence={errorMessage(query.error)}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        ) : (!query.data || query.data.items.length === 0) && waiting.length === 0 ? (
          <EmptyState title="No recent transactions found." />
        ) : (
          <HistoryTable pending={waiting} items={query.data?.items ?? []} me={address} />
        )}
      </CardContent>
    </Card>
  );
}

/** Spec: pending first, then the latest confirmed, five rows in all. */
function HistoryTable({ pending, items, me }: { pending: PendingEntry[]; items: HistoryEntry[]; me: string }) {
  const now = useNow();
  const mine = (a: string) => a.toLowerCase() === me.toLowerCase();
  return (
    <Table className="min-w-[560px]">
      <TableHeader>
        <TableRow>
          <TableHead>Type</TableHead>
          <TableHead>From</TableHead>
          <TableHead>To</TableHead>
          <TableHead className="text-right">Amount (USDX)</TableHead>
          <TableHead>Status</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {pending.slice(0, RECENT_TRANSACTIONS).map((entry) => (
          <PendingRow key={entry.hash} entry={entry} me={me} now={now} />
        ))}
        {items.slice(0, Math.max(0, RECENT_TRANSACTIONS - pending.length)).map((item) => {
          // Seen from this account: what left it is negative, what arrived positive.
          const sign = mine(item.from) && !mine(item.to) ? "-" : mine(item.to) && !mine(item.from) ? "+" : "";
          // USDX rounds a transfer down to whole shares: show what moved, and say so when it is less.
          const note = movedNote(item.amountRaw, item.amountMoved);
          return (
            <TableRow key={`${item.hash}-${item.logIndex}`}>
              <EntryCells type={item.type} hash={item.hash} timestamp={item.timestamp} from={item.from} to={item.to} me={me} now={now} />
              <TableCell className="text-right font-medium tabular-nums" title={note ? note.text : `${item.amount} USDX`}>
                <span className={note?.noShares ? "text-muted-foreground" : sign === "+" ? "text-success" : undefined}>
                  {note?.noShares ? "" : sign}
                  {note ? exactMoved(note.moved) : shownUsdx(BigInt(item.amountRaw))}
                </span>
                {note && <MovedNote note={note} className="ml-auto mt-0.5 max-w-[14rem] text-right" />}
              </TableCell>
              <TableCell>
                {item.status === "confirmed" ? <Badge variant="success">Confirmed</Badge> : <Badge variant="secondary">Pending</Badge>}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/** The Type (with the transaction's link and time), From and To cells of an entry, confirmed or pending. */
function EntryCells({
  type,
  hash,
  timestamp,
  from,
  to,
  me,
  now,
}: {
  type: string;
  hash: string;
  timestamp: number;
  from: string;
  to: string;
  me: string;
  now: number;
}) {
  const config = useConfig();
  const mine = (a: string) => a.toLowerCase() === me.toLowerCase();
  return (
    <>
      <TableCell className="whitespace-nowrap">
        <div className="font-medium">{type}</div>
        <div className="flex items-center gap-x-1.5 text-xs text-muted-foreground">
          <ExplorerLink href={txUrl(config, hash)} label={`Transaction ${hash}`} className="font-mono">
            {shortAddress(hash)}
          </ExplorerLink>
          <span aria-hidden>·</span>
          <time dateTime={new Date(timestamp * 1000).toISOString()}>{relativeTime(timestamp, now)}</time>
        </div>
      </TableCell>
      <TableCell>
        <Party address={from} me={mine(from)} />
      </TableCell>
      <TableCell>
        <Party address={to} me={mine(to)} />
      </TableCell>
    </>
  );
}

/** A transaction this browser sent that the index has not taken yet (Sepolia: until it is final). */
function PendingRow({ entry, me, now }: { entry: PendingEntry; me: string; now: number }) {
  const mine = (a: string) => a.toLowerCase() === me.toLowerCase();
  const sign = mine(entry.from) && !mine(entry.to) ? "-" : mine(entry.to) && !mine(entry.from) ? "+" : "";
  return (
    <TableRow>
      <EntryCells
        type={entry.type}
        hash={entry.hash}
        timestamp={Math.floor(entry.sentAt / 1000)}
        from={entry.from}
        to={entry.to}
        me={me}
        now={now}
      />
      <TableCell className="text-right font-medium tabular-nums">
        {sign}
        {shownUsdx(BigInt(entry.amountRaw))}
      </TableCell>
      <TableCell>
        <Badge variant="secondary">Pending</Badge>
      </TableCell>
    </TableRow>
  );
}

/** One side of a transfer: the zero address of a mint or burn is no one to link to. */
function Party({ address, me }: { address: string; me: boolean }) {
  const config = useConfig();
  if (ZERO_ADDRESS.test(address)) return <span className="font-mono text-xs text-muted-foreground">{shortAddress(address)}</span>;
  return (
    <ExplorerLink href={addressUrl(config, address)} label={`Address ${address}${me ? " (you)" : ""}`} className="font-mono text-xs">
      {shortAddress(address)}
      {me && <span className="font-sans text-muted-foreground"> (you)</span>}
    </ExplorerLink>
  );
}
