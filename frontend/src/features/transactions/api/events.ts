import { useInfiniteQuery } from "@tanstack/react-query";
import { EVENT_FILTERS, EVENTS_DEFAULT_LIMIT } from "@common/events";
import { call, endpointUrl } from "@/lib/api";
import type { EventFilter } from "../filters";

export type { ContractEvent, EventPage } from "@common/apiTypes";

import { EVENTS_TIMEOUT_MS } from "@common/events";

export { EVENTS_TIMEOUT_MS };

/** A request given up after EVENTS_TIMEOUT_MS. */
export class RequestTimeoutError extends Error {
  constructor() {
    super(`The server did not answer within ${EVENTS_TIMEOUT_MS / 1000} seconds.`);
    this.name = "RequestTimeoutError";
  }
}

/** Settles as `promise` does, or fails with RequestTimeoutError after EVENTS_TIMEOUT_MS. */
function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RequestTimeoutError()), EVENTS_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * GET /api/events for a filter (PRODUCT.md section 7): the block range when given, limit 10, and
 * eventName only when a filter other than 'All Events' is applied.
 */
function eventsQuery(filter: EventFilter) {
  const eventName = EVENT_FILTERS.find((f) => f.label === filter.label)?.eventName;
  return { fromBlock: filter.fromBlock, toBlock: filter.toBlock, limit: EVENTS_DEFAULT_LIMIT, eventName: eventName ?? undefined };
}

export function eventsUrl(filter: EventFilter): string {
  return endpointUrl("GET /api/events", { query: eventsQuery(filter) });
}

export const eventsKey = (filter: EventFilter) => [eventsUrl(filter), "pages"] as const;

/**
 * The events of a filter, newest first. 'Load Previous Events' (`fetchNextPage`) passes back the
 * server's cursor, so the next page holds the events just older than those shown, even inside a
 * block that a page boundary split.
 */
export function useContractEvents(filter: EventFilter) {
  return useInfiniteQuery({
    queryKey: eventsKey(filter),
    queryFn: ({ pageParam }) => withTimeout(call("GET /api/events", { query: { ...eventsQuery(filter), cursor: pageParam ?? undefined } })),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.range.hasMore && last.cursor ? last.cursor : undefined),
  });
}

/** The newest block the server knows: where an open-ended range ends when it has to be narrowed. */
export async function latestBlock(): Promise<number> {
  return (await withTimeout(call("GET /api/token"))).blockNumber;
}

/** GET /api/events/export's URL: every event the applied filter finds, oldest first, as CSV. */
export function eventsExportUrl(filter: EventFilter): string {
  const { fromBlock, toBlock, eventName } = eventsQuery(filter);
  return endpointUrl("GET /api/events/export", { query: { fromBlock, toBlock, eventName } });
}
