import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "react-router-dom";
import { Toaster } from "@/components/ui/toast";
import { api } from "@/lib/api";
import { ConfigContext, type AppConfig } from "@/lib/config";
import { createRouter } from "./router";

/**
 * PRODUCT.md section 7's data rules: data never goes stale, no refetch on window focus, no polling, no
 * retries (queries and mutations). Screens that must poll (batch status) say so themselves.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // A GET to the URL in the key's first element ('/api/token'), as PRODUCT.md section 7 says.
      queries: { staleTime: Infinity, refetchOnWindowFocus: false, retry: false, queryFn: ({ queryKey }) => api(String(queryKey[0])) },
      mutations: { retry: false },
    },
  });
}

export function App({ config }: { config: AppConfig }) {
  return (
    <ConfigContext.Provider value={config}>
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={createRouter()} />
        <Toaster />
      </QueryClientProvider>
    </ConfigContext.Provider>
  );
}
