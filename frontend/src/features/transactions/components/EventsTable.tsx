import { Fragment } from "react";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { ContractEvent } from "../api/events";
import { eventBadge, exactUsdx, sameAddress, shownArgs } from "../display";
import { useNow } from "@/lib/useNow";
import { movedNote } from "@/lib/format";
import { AddressLink, BlockLink, TimeCell, TxLink, ViaSafe } from "./links";
import { MovedNote } from "@/components/MovedNote";

/** An event's decoded arguments: addresses shortened and linked, amounts in USDX, roles by name. */
function EventArgs({ event, wallet }: { event: ContractEvent; wallet: string | null }) {
  const args = shownArgs(event.name, event.args);
  if (args.length === 0) return <span className="text-xs text-muted-foreground">No arguments</span>;
  // A Transfer that moved less than its value (whole shares, rounded down): what moved, and why.
  const value = event.args.value;
  const note = event.name === "Transfer" && typeof value === "string" && /^\d+$/.test(value) ? movedNote(value, event.amountMoved) : null;
  return (
    <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
      {args.map((arg) => (
        <div key={arg.name} className="flex items-center gap-1.5">
          <dt className="text-muted-foreground">{arg.name}</dt>
          <dd className="font-medium">
            {arg.kind === "address" ? (
              <AddressLink address={arg.address} you={sameAddress(arg.address, wallet)} />
            ) : (
              <span title={arg.title} className="whitespace-nowrap tabular-nums">
                {arg.text}
              </span>
            )}
          </dd>
        </div>
      ))}
      {note && (
        <div className="grid basis-full gap-0.5">
          <div className="flex items-center gap-1.5">
            <dt className="text-muted-foreground">moved</dt>
            <dd className="whitespace-nowrap font-medium tabular-nums" title={note.text}>
              {exactUsdx(note.moved)} USDX
            </dd>
          </div>
          <MovedNote note={note} className="max-w-none" />
        </div>
      )}
    </dl>
  );
}

function EventName({ event }: { event: ContractEvent }) {
  return (
    <div className="grid min-w-0 justify-items-start gap-1">
      <Badge variant={eventBadge(event.name)}>{event.name}</Badge>
      <ViaSafe via={event.viaSafe} />
      <code className="break-words font-mono text-[11px] text-muted-foreground">
        {event.contract !== "USDX" && <span className="font-sans font-medium">{event.contract} · </span>}
        {/* A long signature may wrap after a comma, never inside a type. */}
        {event.signature.split(",").map((part, i) => (
          <Fragment key={i}>
            {i > 0 && (
              <>
                ,<wbr />
              </>
            )}
            {part}
          </Fragment>
        ))}
      </code>
    </div>
  );
}

/**
 * PRODUCT.md section 2's events table: Event badge and signature, its arguments, transaction, block,
 * time. Below the extra-large breakpoint the same events are a list, so nothing hides off a phone's edge.
 */
export function EventsTable({ events, wallet }: { events: ContractEvent[]; wallet: string | null }) {
  const now = useNow();
  return (
    <>
      <div className="hidden xl:block">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Event</TableHead>
              <TableHead>Details</TableHead>
              <TableHead>Transaction</TableHead>
              <TableHead className="text-right">Block</TableHead>
              <TableHead>Time</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {events.map((event) => (
              <TableRow key={`${event.blockNumber}-${event.logIndex}`}>
                <TableCell className="align-top">
                  <EventName event={event} />
                </TableCell>
                <TableCell className="align-top">
                  <EventArgs event={event} wallet={wallet} />
                </TableCell>
                <TableCell className="align-top">
                  <TxLink hash={event.transactionHash} />
                </TableCell>
                <TableCell className="text-right align-top">
                  <BlockLink block={event.blockNumber} />
                </TableCell>
                <TableCell className="align-top">
                  <TimeCell timestamp={event.timestamp} now={now} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <ul aria-label="Contract events" className="divide-y divide-border xl:hidden">
        {events.map((event) => (
          <li key={`${event.blockNumber}-${event.logIndex}`} className="grid gap-2 py-3">
            <div className="flex items-start justify-between gap-3">
              <EventName event={event} />
              <span className="shrink-0 text-xs">
                <TimeCell timestamp={event.timestamp} now={now} />
              </span>
            </div>
            <EventArgs event={event} wallet={wallet} />
            <div className="flex flex-wrap items-center gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
              <TxLink hash={event.transactionHash} />
              <span>
                Block <BlockLink block={event.blockNumber} />
              </span>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
