import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Clock, History, SearchX } from "lucide-react";
import { EmptyState, Loading, LoadFailed } from "@/components/states";
import { ExportButton } from "@/components/ExportButton";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/components/ui/toast";
import { useConfig } from "@/lib/config";
import { plural } from "@/lib/format";
import { useWallet } from "@/lib/wallet/store";
import {
  EVENTS_TIMEOUT_MS,
  RequestTimeoutError,
  eventsExportUrl,
  eventsKey,
  eventsUrl,
  latestBlock,
  useContractEvents,
} from "../api/events";
import { ALL_EVENTS, checkFilter, draftOf, narrowRange, type EventFilter, type FilterDraft, type RangeProblems } from "../filters";
import { EventFilterForm } from "./EventFilterForm";
import { EventsTable } from "./EventsTable";

/**
 * The 'Contract Events' tab: every event of the USDX contracts, newest first, 10 at a time, by
 * type and block range; 'Load Previous Events' appends the older ones (PRODUCT.md sections 2 and 8).
 */
export function ContractEventsCard() {
  const config = useConfig();
  const wallet = useWallet((s) => (s.status === "connected" ? s.address : null));
  const queryClient = useQueryClient();
  const [applied, setApplied] = useState<EventFilter>(ALL_EVENTS);
  const [draft, setDraft] = useState<FilterDraft>(() => draftOf(ALL_EVENTS));
  const [problems, setProblems] = useState<RangeProblems>({});
  const [narrowing, setNarrowing] = useState(false);
  const query = useContractEvents(applied);

  const events = query.data?.pages.flatMap((page) => page.events) ?? [];
  const pages = query.data?.pages ?? [];
  const timedOut = query.error instanceof RequestTimeoutError;

  /** Shows `next`; applying the filter already shown asks the server again from the first page. */
  const apply = (next: EventFilter) => {
    setDraft(draftOf(next));
    setProblems({});
    if (eventsUrl(next) === eventsUrl(applied)) void queryClient.resetQueries({ queryKey: eventsKey(next) });
    else setApplied(next);
  };

  const onApply = () => {
    const checked = checkFilter(draft);
    if (!checked.ok) {
      setProblems(checked.problems);
      toast({ title: "Invalid block range", description: checked.problems.fromBlock ?? checked.problems.toBlock, variant: "destructive" });
      return;
    }
    apply(checked.filter);
  };

  /** 'Retry with smaller block range': the last 1,000 blocks of the range that timed out. */
  const retrySmaller = async () => {
    setNarrowing(true);
    try {
      const toBlock = applied.toBlock ?? (await latestBlock());
      const fromBlock = Math.min(applied.fromBlock ?? config.contracts.deploymentBlock, toBlock);
      apply({ ...applied, ...narrowRange(fromBlock, toBlock) });
    } catch (error) {
      toast({
        title: "Request Timeout",
        description: `Could not read the latest block to narrow the range: ${(error as Error).message}`,
        variant: "destructive",
      });
    } finally {
      setNarrowing(false);
    }
  };

  /** A read that failed: 'Request Timeout' after EVENTS_TIMEOUT_MS, else the 'Error' alert with the message. */
  const failure = (onRetry: () => void, retryLabel?: string, retrying = query.isFetching) =>
    timedOut ? (
      <LoadFailed
        icon={Clock}
        title="Request Timeout"
        sentence={`The server took longer than ${EVENTS_TIMEOUT_MS / 1000} seconds to answer. A smaller block range loads faster.`}
        onRetry={onRetry}
        retrying={retrying}
        retryLabel={retryLabel}
      />
    ) : (
      <LoadFailed
        title="Error"
        sentence={`Failed to load contract events: ${query.error?.message || "Unknown error"}`}
        onRetry={onRetry}
        retrying={retrying}
      />
    );

  const newest = pages[0]?.range.toBlock;
  const oldest = pages[pages.length - 1]?.range.fromBlock;

  return (
    <Card className="min-w-0">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 space-y-0 p-4 sm:p-6">
        <div className="min-w-0 space-y-1.5">
          <CardTitle className="text-base">Contract Events</CardTitle>
          <CardDescription>Everything the USDX contracts recorded on chain, newest first.</CardDescription>
        </div>
        {/* The filter applied (not the one being typed): the file holds what the table shows, every page of it, oldest first. */}
        <ExportButton size="sm" path={eventsExportUrl(applied)} fallbackName="usdx_events.csv" disabled={events.length === 0} />
      </CardHeader>
      <CardContent className="grid gap-4 p-4 pt-0 sm:p-6 sm:pt-0">
        <EventFilterForm
          draft={draft}
          problems={problems}
          deploymentBlock={config.contracts.deploymentBlock}
          onChange={(next) => {
            setDraft(next);
            setProblems({});
          }}
          onApply={onApply}
          onReset={() => apply(ALL_EVENTS)}
        />

        {query.isPending ? (
          <Loading label="Loading contract events" />
        ) : query.isError && events.length === 0 && !query.isFetchNextPageError ? (
          timedOut ? (
            // The first page timed out: the way out is a smaller range, not the same request again.
            failure(() => void retrySmaller(), "Retry with smaller block range", narrowing || query.isFetching)
          ) : (
            failure(() => void query.refetch())
          )
        ) : events.length === 0 ? (
          <EmptyState
            icon={<SearchX aria-hidden />}
            title="No events found for the specified criteria."
            hint="Try another event type or a wider block range."
          />
        ) : (
          <>
            {query.isRefetchError && failure(() => void query.refetch())}
            <EventsTable events={events} wallet={wallet} />
            {query.isFetchNextPageError && failure(() => void query.fetchNextPage())}
            <div className="flex flex-wrap items-center justify-between gap-3 border-t border-border pt-4">
              <p className="text-xs text-muted-foreground">
                {plural(events.length, "event")}
                {newest !== undefined && oldest !== undefined && ` in blocks ${oldest.toLocaleString()} to ${newest.toLocaleString()}`}
                {!query.hasNextPage && ", all that match"}
              </p>
              {query.hasNextPage && (
                <Button variant="outline" size="sm" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
                  {query.isFetchingNextPage ? (
                    <Spinner className="h-4 w-4" label="Loading previous events" />
                  ) : (
                    <History className="h-4 w-4" aria-hidden />
                  )}
                  Load Previous Events
                </Button>
              )}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
