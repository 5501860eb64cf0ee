import { ArrowDownLeft, ArrowLeftRight, ArrowRight, ArrowUpRight, Flame, Plus } from "lucide-react";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/lib/utils";
import type { HistoryEntry } from "../api/history";
import { directionOf, exactUsdx, sameAddress, type Direction } from "../display";
import { useNow } from "@/lib/useNow";
import { movedNote } from "@/lib/format";
import { AddressLink, BlockLink, TimeCell, TxLink, ViaSafe } from "./links";
import { MovedNote } from "@/components/MovedNote";

const SIGN: Record<Direction, string> = { in: "+", out: "-", self: "" };
const TONE: Record<Direction, string> = { in: "text-success", out: "text-destructive", self: "text-foreground" };

function TypeIcon({ entry, direction }: { entry: HistoryEntry; direction: Direction }) {
  const Icon =
    entry.type === "Mint"
      ? Plus
      : entry.type === "Burn"
        ? Flame
        : direction === "self"
          ? ArrowLeftRight
          : direction === "in"
            ? ArrowDownLeft
            : ArrowUpRight;
  return (
    <span
      className={cn(
        "flex h-7 w-7 shrink-0 items-center justify-center rounded-full",
        direction === "in"
          ? "bg-success/10 text-success"
          : direction === "out"
            ? "bg-destructive/10 text-destructive"
            : "bg-muted text-muted-foreground",
      )}
    >
      <Icon className="h-3.5 w-3.5" aria-hidden />
    </span>
  );
}

/**
 * Signed from the side of the account whose history this is: what arrived is +, what left is -;
 * exact, never rounded. When rounding to whole shares moved less than the event says, the amount
 * is what moved, with a note saying so (no sign when nothing moved).
 */
function Amount({ entry, direction, className }: { entry: HistoryEntry; direction: Direction; className?: string }) {
  const note = movedNote(entry.amountRaw, entry.amountMoved);
  const shown = note ? note.moved : BigInt(entry.amountRaw);
  const amount = (
    <span
      className={cn(
        "whitespace-nowrap font-medium tabular-nums",
        note?.noShares ? "text-muted-foreground" : TONE[direction],
        !note && className,
      )}
      title={note ? note.text : `${entry.amount} USDX`}
    >
      {note?.noShares ? "" : SIGN[direction]}
      {exactUsdx(shown)}
    </span>
  );
  if (!note) return amount;
  return (
    <span className={cn("inline-grid justify-items-end gap-0.5 text-right", className)}>
      {amount}
      <MovedNote note={note} className="text-right" />
    </span>
  );
}

interface Props {
  items: HistoryEntry[];
  /** The account whose history this is. */
  account: string;
  /** The connected wallet, marked '(you)'. */
  wallet: string | null;
}

/**
 * PRODUCT.md section 2's history table: Type, Tx Hash, From, To, Amount, Block, Time. Below the extra-large
 * breakpoint the same entries are a list, so a phone shows the amount without scrolling sideways.
 */
export function HistoryTable({ items, account, wallet }: Props) {
  const now = useNow();
  const party = (address: string) => (
    <AddressLink address={address} you={sameAddress(address, wallet)} current={sameAddress(address, account)} />
  );
  return (
    <>
      <div className="hidden xl:block">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Type</TableHead>
              <TableHead>Tx Hash</TableHead>
              <TableHead>From</TableHead>
              <TableHead>To</TableHead>
              <TableHead className="text-right">Amount</TableHead>
              <TableHead className="text-right">Block</TableHead>
              <TableHead>Time</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((entry) => {
              const direction = directionOf(account, entry.from, entry.to);
              return (
                <TableRow key={`${entry.blockNumber}-${entry.logIndex}`}>
                  <TableCell>
                    <div className="flex items-center gap-2 font-medium">
                      <TypeIcon entry={entry} direction={direction} />
                      <span className="grid">
                        {entry.type}
                        <ViaSafe via={entry.viaSafe} />
                      </span>
                    </div>
                  </TableCell>
                  <TableCell>
                    <TxLink hash={entry.hash} />
                  </TableCell>
                  <TableCell>{party(entry.from)}</TableCell>
                  <TableCell>{party(entry.to)}</TableCell>
                  <TableCell className="text-right">
                    <Amount entry={entry} direction={direction} />
                  </TableCell>
                  <TableCell className="text-right">
                    <BlockLink block={entry.blockNumber} />
                  </TableCell>
                  <TableCell>
                    <TimeCell timestamp={entry.timestamp} now={now} />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </div>
      <ul aria-label="Transactions" className="divide-y divide-border xl:hidden">
        {items.map((entry) => {
          const direction = directionOf(account, entry.from, entry.to);
          return (
            <li key={`${entry.blockNumber}-${entry.logIndex}`} className="flex gap-3 py-3">
              <TypeIcon entry={entry} direction={direction} />
              <div className="grid min-w-0 flex-1 gap-1">
                <div className="flex items-baseline justify-between gap-3">
                  <span className="grid font-medium">
                    {entry.type}
                    <ViaSafe via={entry.viaSafe} />
                  </span>
                  <Amount entry={entry} direction={direction} />
                </div>
                <div className="flex flex-wrap items-center gap-x-1.5 gap-y-0.5">
                  {party(entry.from)}
                  <ArrowRight className="h-3 w-3 text-muted-foreground" aria-hidden />
                  <span className="sr-only">to</span>
                  {party(entry.to)}
                </div>
                <div className="flex flex-wrap items-center gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
                  <TxLink hash={entry.hash} />
                  <span>
                    Block <BlockLink block={entry.blockNumber} />
                  </span>
                  <TimeCell timestamp={entry.timestamp} now={now} />
                </div>
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}
