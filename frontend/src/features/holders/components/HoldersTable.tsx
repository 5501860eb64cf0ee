import { ArrowDown, ArrowUp, ArrowUpDown, History } from "lucide-react";
import { CopyableAddress } from "@/components/CopyableAddress";
import { ExplorerLink } from "@/components/ExplorerLink";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useConfig } from "@/lib/config";
import { addressUrl, blockUrl, isExternal } from "@/lib/explorer";
import { count, relativeTime } from "@/lib/format";
import { useNow } from "@/lib/useNow";
import { useWallet } from "@/lib/wallet/store";
import { cn } from "@/lib/utils";
import type { Holder, HolderSort, SortOrder } from "../api/holders";
import { exactBalance, shownBalance, shownShare } from "../format";

interface HoldersTableProps {
  holders: Holder[];
  sort: HolderSort;
  order: SortOrder;
  onSort(sort: HolderSort): void;
}

/** The columns, and which sort each header asks for (share of supply sorts as the balance does). */
const COLUMNS: { label: string; sort: HolderSort; numeric?: boolean }[] = [
  { label: "Address", sort: "address" },
  { label: "Balance", sort: "balance", numeric: true },
  { label: "Share of supply", sort: "balance", numeric: true },
  { label: "First activity", sort: "firstActivity" },
  { label: "Last activity", sort: "lastActivity" },
];

function SortHeader({
  label,
  column,
  sort,
  order,
  numeric,
  onSort,
}: {
  label: string;
  column: HolderSort;
  sort: HolderSort;
  order: SortOrder;
  numeric?: boolean;
  onSort(sort: HolderSort): void;
}) {
  // Share of supply repeats the balance's order: only the Balance header carries it for screen readers.
  const active = sort === column && label !== "Share of supply";
  const Icon = sort !== column ? ArrowUpDown : order === "asc" ? ArrowUp : ArrowDown;
  return (
    <TableHead className={cn(numeric && "text-right")} aria-sort={active ? (order === "asc" ? "ascending" : "descending") : undefined}>
      <button
        type="button"
        onClick={() => onSort(column)}
        className={cn(
          "inline-flex items-center gap-1 rounded-sm uppercase tracking-wide hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
          sort === column && "text-foreground",
        )}
      >
        {label}
        <Icon className={cn("h-3.5 w-3.5", sort !== column && "opacity-40")} aria-hidden />
      </button>
    </TableHead>
  );
}

function ActivityCell({ activity, now }: { activity: Holder["firstActivity"]; now: number }) {
  const config = useConfig();
  const date = new Date(activity.timestamp * 1000);
  return (
    <TableCell className="whitespace-nowrap">
      <time dateTime={date.toISOString()} title={date.toLocaleString()} className="block text-sm">
        {relativeTime(activity.timestamp, now)}
      </time>
      <ExplorerLink href={blockUrl(config, activity.blockNumber)} label={`Block ${activity.blockNumber}`} className="text-xs tabular-nums">
        Block {count(activity.blockNumber)}
      </ExplorerLink>
    </TableCell>
  );
}

/** Address (click to copy, and a link to its history), Balance, Share of supply, First and Last activity; each header sorts. */
export function HoldersTable({ holders, sort, order, onSort }: HoldersTableProps) {
  const config = useConfig();
  const now = useNow();
  const me = useWallet((s) => (s.status === "connected" ? (s.address?.toLowerCase() ?? null) : null));
  return (
    <Table aria-label="Holders">
      <TableHeader>
        <TableRow>
          {COLUMNS.map((c) => (
            <SortHeader key={c.label} label={c.label} column={c.sort} sort={sort} order={order} numeric={c.numeric} onSort={onSort} />
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {holders.map((holder) => (
          <TableRow key={holder.address}>
            <TableCell className="whitespace-nowrap">
              <span className="inline-flex items-center gap-1.5">
                <CopyableAddress address={holder.address} />
                {/* The explorer's page on Sepolia (its link carries an icon); the account's history here on the local chain. */}
                <ExplorerLink href={addressUrl(config, holder.address)} label={`Activity of ${holder.address}`} className="text-xs">
                  {!isExternal(config) && <History className="h-3.5 w-3.5" aria-hidden />}
                </ExplorerLink>
                {holder.address.toLowerCase() === me && <span className="text-xs text-muted-foreground">(you)</span>}
              </span>
            </TableCell>
            <TableCell className="whitespace-nowrap text-right font-medium tabular-nums" title={exactBalance(holder.balance)}>
              {shownBalance(holder.balance)}
            </TableCell>
            <TableCell className="whitespace-nowrap text-right tabular-nums text-muted-foreground">
              {shownShare(holder.shareOfSupply)}
            </TableCell>
            <ActivityCell activity={holder.firstActivity} now={now} />
            <ActivityCell activity={holder.lastActivity} now={now} />
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
