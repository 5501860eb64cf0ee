import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { HOLDERS_DEFAULT_LIMIT } from "@common/holders";
import { call, endpointUrl } from "@/lib/api";
import type { Holder, HolderPage, HolderSort, SortOrder } from "@common/apiTypes";

export type { Holder, HolderPage, HolderSort, SortOrder };

/** Rows per page: the server's default page size. */
export const HOLDERS_PAGE_SIZE = HOLDERS_DEFAULT_LIMIT;

/** What the table asks for: an order, perhaps a search, and where the page starts. */
export interface HolderView {
  sort: HolderSort;
  order: SortOrder;
  /** Part of an address as typed (any case); "" for every holder. */
  search: string;
  offset: number;
}

/** The server's search rule (common/holders.ts): what breaks it is said on the page instead of being sent. */
export { isHolderSearch as isAddressSearch } from "@common/holders";

const listQuery = ({ sort, order, search, offset }: HolderView) => ({
  sort,
  order,
  search: search || undefined,
  offset,
  limit: HOLDERS_PAGE_SIZE,
});

/** Every holders query starts with this key, so a refresh reloads every page and search. */
export const holdersKey = ["/api/holders"] as const;

/**
 * One page of holders (GET /api/holders): the server sorts and searches all of them, so a page of
 * 100,000 is as quick as a page of ten. While the next page or a new search loads, the rows shown
 * stay on screen.
 */
export function useHolders(view: HolderView, enabled = true) {
  return useQuery({
    queryKey: [...holdersKey, listQuery(view)],
    queryFn: () => call("GET /api/holders", { query: listQuery(view) }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/holders/export's URL: every holder the search matches, in the table's order, as the server's CSV. */
export function holdersExportUrl(view: Pick<HolderView, "sort" | "order" | "search">): string {
  return endpointUrl("GET /api/holders/export", { query: { sort: view.sort, order: view.order, search: view.search || undefined } });
}
