import type { ReactNode } from "react";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { api } from "@/lib/api";
import { ConfigContext, type AppConfig } from "@/lib/config";
import { testConfig as makeTestConfig } from "./config";

/** The config a screen renders with unless a test says otherwise: the local chain, no development wallet. */
export const testConfig: AppConfig = makeTestConfig({ devAccounts: null });

/** The app's query rules (the default queryFn GETs the key's URL), without retries. */
export const testQueryClient = () =>
  new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity, queryFn: ({ queryKey }) => api(String(queryKey[0])) } },
  });

/** Where a screen sent the person: a heading that names the path. */
export function Elsewhere() {
  return <h1>At {useLocation().pathname}</h1>;
}

/**
 * Renders at / with the app's providers and stand-ins for the places a screen navigates to;
 * `rerender` keeps the providers. Shared by the features' tests and the layers below them.
 */
export function renderAtHome(element: ReactNode, config: AppConfig = testConfig) {
  const user = userEvent.setup();
  const client = testQueryClient();
  const routes = (page: ReactNode) => (
    <Routes>
      <Route path="/" element={page} />
      <Route path="*" element={<Elsewhere />} />
    </Routes>
  );
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ConfigContext.Provider value={config}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={["/"]}>{children}</MemoryRouter>
      </QueryClientProvider>
    </ConfigContext.Provider>
  );
  const view = render(routes(element), { wrapper });
  return { user, client, rerender: (next: ReactNode) => view.rerender(routes(next)) };
}
