import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { vi } from "vitest";
import { useToasts } from "@/components/ui/toast";
import { api } from "@/lib/api";
import { ConfigContext, type AppConfig } from "@/lib/config";
import { initialWalletState, useWallet } from "@/lib/wallet/store";
import { testConfig as makeTestConfig } from "@/test/config";
import type { ContractEvent, HistoryEntry } from "@common/apiTypes";
import TransactionsPage from "./pages/TransactionsPage";

export const ME = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
export const OTHER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
export const ZERO = `0x${"0".repeat(40)}`;
export const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

export const testConfig: AppConfig = makeTestConfig({ devAccounts: null });

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** Stubs fetch: each exact URL answers the JSON given, or what its function returns. */
export function stubApi(routes: Record<string, unknown | ((url: string) => Response | Promise<Response>)>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    const answer = routes[url];
    if (answer === undefined) return json({ error: `no stub for ${url}` }, 404);
    return typeof answer === "function" ? answer(url) : json(answer);
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

/** The URLs fetched so far, in order. */
export const fetched = (fetchMock: ReturnType<typeof stubApi>) => fetchMock.mock.calls.map((call) => String(call[0]));

/** A history entry; unless told otherwise, everything its event says moved (at multiplier 1.0). */
export function entry(over: Partial<HistoryEntry> = {}): HistoryEntry {
  const amountRaw = over.amountRaw ?? "12500000000000000000";
  return {
    hash: hash(1),
    type: "Transfer",
    from: ME,
    to: OTHER,
    amount: "12.5",
    amountRaw,
    sharesMoved: amountRaw,
    amountMoved: amountRaw,
    blockNumber: 40,
    logIndex: 0,
    timestamp: Math.floor(Date.now() / 1000) - 120,
    status: "confirmed",
    ...over,
  };
}

export function event(over: Partial<ContractEvent> = {}): ContractEvent {
  return {
    name: "Transfer",
    signature: "Transfer(address,address,uint256)",
    contract: "USDX",
    transactionHash: hash(2),
    logIndex: 0,
    blockNumber: 37,
    timestamp: Math.floor(Date.now() / 1000) - 30,
    args: { to: OTHER, from: ME, value: "2000000000000000000" },
    ...over,
  };
}

export const eventPage = (
  events: ContractEvent[],
  range = { fromBlock: 1, toBlock: 40, hasMore: false },
  cursor: string | null = null,
) => ({ events, range, cursor });

export function connect(address = ME) {
  useWallet.setState({
    status: "connected",
    address,
    chainId: testConfig.chainId,
    provider: { request: vi.fn() },
    walletId: "dev",
    walletName: "Dev",
  });
}

export function resetAll() {
  useToasts.setState({ toasts: [] });
  useWallet.setState({ ...initialWalletState });
  vi.unstubAllGlobals();
}

export const toasts = () => useToasts.getState().toasts;

function Elsewhere() {
  const location = useLocation();
  return (
    <h1>
      At {location.pathname}
      {location.search}
    </h1>
  );
}

/** Renders the Transaction History page at `path` with the app's query rules, without retries. */
export function renderPage(path = "/transactions", config: AppConfig = testConfig, options: { advanceTimers?: (ms: number) => void } = {}) {
  const user = userEvent.setup(options.advanceTimers ? { advanceTimers: options.advanceTimers } : {});
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity, queryFn: ({ queryKey }) => api(String(queryKey[0])) } },
  });
  const utils = render(
    <ConfigContext.Provider value={config}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/transactions" element={<TransactionsPage />} />
            <Route path="*" element={<Elsewhere />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </ConfigContext.Provider>,
  );
  return { user, client, ...utils };
}
