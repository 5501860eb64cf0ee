import type { ReactNode } from "react";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router-dom";
import { vi } from "vitest";
import { exactTokenAmount } from "@common/amounts";
import { useToasts } from "@/components/ui/toast";
import { ConfigContext } from "@/lib/config";
import { initialWalletState, useWallet } from "@/lib/wallet/store";
import { testConfig } from "@/test/config";
import type { Holder, HolderPage, HolderSort } from "./api/holders";

export const ONE = 10n ** 18n;
export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** A holder with `balance` whole USDX (shares equal at 1.0), first seen at `first` and last at `last` (Unix seconds). */
export function holder(address: string, balance: bigint, first: number, last: number): Holder {
  return {
    address,
    balance: (balance * ONE).toString(),
    shares: (balance * ONE).toString(),
    shareOfSupply: "0",
    firstActivity: { blockNumber: first, timestamp: first },
    lastActivity: { blockNumber: last, timestamp: last },
  };
}

/** `n` distinct addresses, 0x00..01 upwards. */
export const addresses = (n: number) => Array.from({ length: n }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`);

const ascending: Record<HolderSort, (a: Holder, b: Holder) => number> = {
  balance: (a, b) => Number(BigInt(a.balance) - BigInt(b.balance)) || a.address.localeCompare(b.address),
  address: (a, b) => a.address.toLowerCase().localeCompare(b.address.toLowerCase()),
  firstActivity: (a, b) => a.firstActivity.blockNumber - b.firstActivity.blockNumber || a.address.localeCompare(b.address),
  lastActivity: (a, b) => a.lastActivity.blockNumber - b.lastActivity.blockNumber || a.address.localeCompare(b.address),
};

export interface Call {
  url: string;
  headers: Record<string, string>;
}

/**
 * A stand-in for GET /api/holders that sorts, searches and pages like the server (the share of
 * supply worked out from the balances). `override` answers a call first when it returns a Response.
 */
export function fakeServer(holders: Holder[], override?: (call: Call) => Response | Promise<Response> | undefined) {
  const calls: Call[] = [];
  const supply = holders.reduce((sum, h) => sum + BigInt(h.balance), 0n);
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: Call = { url: String(input), headers: (init?.headers as Record<string, string>) ?? {} };
    calls.push(call);
    const answer = override?.(call);
    if (answer) return answer;
    const { pathname, searchParams } = new URL(call.url, "http://dashboard.test");
    if (pathname !== "/api/holders") return json({ success: false, error: `No such endpoint: GET ${pathname}` }, 404);
    const sort = (searchParams.get("sort") ?? "balance") as HolderSort;
    const order = searchParams.get("order") ?? (sort === "address" ? "asc" : "desc");
    const search = (searchParams.get("search") ?? "").toLowerCase();
    const offset = Number(searchParams.get("offset") ?? 0);
    const limit = Number(searchParams.get("limit") ?? 50);
    const sorted = [...holders].sort(ascending[sort]);
    if (order === "desc") sorted.reverse();
    const found = sorted.filter((h) =>
      search.startsWith("0x") ? h.address.toLowerCase().startsWith(search) : h.address.slice(2).toLowerCase().includes(search),
    );
    const share = (h: Holder) => (supply === 0n ? "0" : exactTokenAmount((BigInt(h.balance) * 10n ** 8n) / supply, 8));
    const page: HolderPage = {
      holders: found.slice(offset, offset + limit).map((h) => ({ ...h, shareOfSupply: share(h) })),
      holderCount: holders.length,
      matching: found.length,
      offset,
      limit,
      sort,
      order: order as "asc" | "desc",
      totalSupply: supply.toString(),
      totalShares: supply.toString(),
      rewardMultiplier: ONE.toString(),
      blockNumber: 100,
    };
    return json(page);
  });
  vi.stubGlobal("fetch", fetchMock);
  return { calls, lists: () => calls.filter((c) => c.url.startsWith("/api/holders?")).map((c) => c.url) };
}

export function renderPage(element: ReactNode) {
  const user = userEvent.setup();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const utils = render(
    <ConfigContext.Provider value={testConfig()}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={["/holders"]}>{element}</MemoryRouter>
      </QueryClientProvider>
    </ConfigContext.Provider>,
  );
  return { user, client, ...utils };
}

export const lastToast = () => useToasts.getState().toasts[0];

export function resetAll() {
  useToasts.setState({ toasts: [] });
  useWallet.setState({ ...initialWalletState });
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
}
