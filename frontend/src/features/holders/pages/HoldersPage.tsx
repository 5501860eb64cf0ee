import { useState } from "react";
import { AlertCircle, ChevronLeft, ChevronRight, RefreshCw, RotateCw, Search, SearchX, Users } from "lucide-react";
import { DEFAULT_ORDER } from "@common/holders";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { holdersExportUrl, HOLDERS_PAGE_SIZE, isAddressSearch, useHolders, type HolderSort, type SortOrder } from "../api/holders";
import { ExportButton } from "@/components/ExportButton";
import { HoldersTable } from "../components/HoldersTable";
import { shownBalance } from "../format";
import { count, plural } from "@/lib/format";
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from "@/lib/useDebouncedValue";

/** /holders: every account holding USDX, from the server's index (PRODUCT.md section 2, Holders). */
export default function HoldersPage() {
  const [sorting, setSorting] = useState<{ sort: HolderSort; order: SortOrder }>({ sort: "balance", order: "desc" });
  const [text, setText] = useState("");
  const [pageStart, setPageStart] = useState<{ offset: number; for: string }>({ offset: 0, for: "" });
  const search = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const validSearch = isAddressSearch(search);
  // A new order or search starts again at the first page.
  const viewKey = `${sorting.sort}:${sorting.order}:${search}`;
  const offset = pageStart.for === viewKey ? pageStart.offset : 0;
  const view = { ...sorting, search, offset };
  const holders = useHolders(view, validSearch);
  const data = holders.data;

  const sortBy = (sort: HolderSort) =>
    setSorting((current) =>
      current.sort === sort ? { sort, order: current.order === "asc" ? "desc" : "asc" } : { sort, order: DEFAULT_ORDER[sort] },
    );
  const goTo = (next: number) => setPageStart({ offset: next, for: viewKey });

  return (
    <div>
      <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-2xl font-bold tracking-tight">Holders</h1>
          <p className="text-sm text-muted-foreground">
            Every account holding USDX, with its balance (shares × the reward multiplier) and when it was last active.
          </p>
        </div>
        <div className="flex gap-2">
          <Button
            type="button"
            variant="outline"
            size="icon"
            aria-label="Refresh holders"
            title="Refresh"
            onClick={() => void holders.refetch()}
            disabled={holders.isFetching || !validSearch}
          >
            <RefreshCw className={holders.isFetching ? "h-4 w-4 animate-spin" : "h-4 w-4"} aria-hidden />
          </Button>
          <ExportButton path={holdersExportUrl(view)} fallbackName="usdx_holders.csv" disabled={!validSearch} />
        </div>
      </div>

      <Card>
        <CardHeader className="flex-row flex-wrap items-center justify-between gap-3 space-y-0 p-4 sm:p-6">
          <div className="relative w-full sm:max-w-sm">
            <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
            <Input
              type="search"
              aria-label="Search holders by address"
              aria-invalid={!validSearch || undefined}
              aria-describedby={!validSearch ? "holders-search-error" : undefined}
              placeholder="Search by address"
              className="pl-9 pr-9"
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
            {holders.isPlaceholderData && holders.isFetching && (
              <Spinner className="absolute right-3 top-1/2 h-4 w-4 -translate-y-1/2" label="Searching" />
            )}
          </div>
          {data && (
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {search && validSearch
                ? `${count(data.matching)} of ${count(data.holderCount)} holders match`
                : plural(data.holderCount, "holder")}
              <span className="hidden sm:inline"> · total supply {shownBalance(data.totalSupply)} USDX</span>
            </p>
          )}
        </CardHeader>
        <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
          {!validSearch ? (
            <p id="holders-search-error" role="alert" className="py-8 text-center text-sm text-destructive">
              An address search uses hex digits (0-9, a-f), with or without a leading 0x.
            </p>
          ) : holders.isError && !data ? (
            <LoadError error={holders.error} retrying={holders.isFetching} onRetry={() => void holders.refetch()} />
          ) : !data ? (
            <div className="flex items-center justify-center gap-2 py-12 text-sm text-muted-foreground">
              <Spinner label="Loading holders" /> Loading holders...
            </div>
          ) : data.holders.length === 0 && data.matching === 0 ? (
            <EmptyState searching={search !== ""} />
          ) : (
            <div className="grid gap-4">
              {holders.isError && <LoadError error={holders.error} retrying={holders.isFetching} onRetry={() => void holders.refetch()} />}
              <HoldersTable holders={data.holders} sort={data.sort} order={data.order} onSort={sortBy} />
              <div className="flex flex-wrap items-center justify-between gap-2 border-t border-border pt-4 text-sm text-muted-foreground">
                <span>
                  {data.holders.length > 0
                    ? `Showing ${count(data.offset + 1)}–${count(data.offset + data.holders.length)} of ${count(data.matching)}`
                    : `No holders past ${count(data.matching)}`}
                </span>
                <div className="flex gap-2">
                  <Button
                    type="button"
                    variant="outline"
                    size="sm"
                    onClick={() => goTo(Math.max(0, offset - HOLDERS_PAGE_SIZE))}
                    disabled={offset === 0 || holders.isFetching}
                  >
                    <ChevronLeft className="h-4 w-4" aria-hidden />
                    Previous
                  </Button>
                  <Button
                    type="button"
                    variant="outline"
                    size="sm"
                    onClick={() => goTo(offset + HOLDERS_PAGE_SIZE)}
                    disabled={offset + HOLDERS_PAGE_SIZE >= data.matching || holders.isFetching}
                  >
                    Next
                    <ChevronRight className="h-4 w-4" aria-hidden />
                  </Button>
                </div>
              </div>
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function EmptyState({ searching }: { searching: boolean }) {
  const Icon = searching ? SearchX : Users;
  return (
    <div className="flex flex-col items-center gap-2 py-12 text-center">
      <span className="mb-1 flex h-12 w-12 items-center justify-center rounded-full bg-accent text-accent-foreground">
        <Icon className="h-6 w-6" aria-hidden />
      </span>
      <p className="font-medium">{searching ? "No holders match your search" : "No holders yet"}</p>
      <p className="text-sm text-muted-foreground">
        {searching ? "Try fewer digits, or check the address." : "Accounts appear here once USDX is minted to them."}
      </p>
    </div>
  );
}

function LoadError({ error, retrying, onRetry }: { error: Error | null; retrying: boolean; onRetry(): void }) {
  return (
    <Alert variant="destructive">
      <AlertCircle className="h-4 w-4" aria-hidden />
      <AlertTitle>Failed to load holders</AlertTitle>
      <AlertDescription className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 [overflow-wrap:anywhere]">{error?.message || "Unknown error"}</span>
        <Button type="button" size="sm" variant="outline" onClick={onRetry} disabled={retrying}>
          <RotateCw className={retrying ? "h-4 w-4 animate-spin" : "h-4 w-4"} aria-hidden />
          Retry
        </Button>
      </AlertDescription>
    </Alert>
  );
}
