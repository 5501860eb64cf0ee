import { QueryClientProvider } from "@tanstack/react-query";
import { renderToString } from "react-dom/server";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import LoginPage from "@/features/auth/pages/LoginPage";
import { Frame } from "@/app/layout/Frame";
import DashboardRoute from "@/app/pages/DashboardRoute";
import { createQueryClient } from "@/app/App";
import { ConfigContext, type AppConfig } from "@/lib/config";
import { Prerendering } from "@/lib/prerendering";

/**
 * The Login screen as a visitor first sees it (the Email tab, Login form), rendered at build time
 * into the page /login is served as (build/prerenderPages.ts): the browser draws it from the HTML
 * and the stylesheet alone, before any script has run. The app then renders the same screen over it.
 * Nothing here may depend on the browser or the server's configuration: neither exists at build time.
 */
export function renderLoginScreen(): string {
  return renderToString(
    <MemoryRouter initialEntries={["/login"]}>
      <LoginPage />
    </MemoryRouter>,
  );
}

/**
 * A configuration that names nothing: the network, the addresses and the RPC URL are the server's,
 * unknown at build time. Components that show them leave their place empty (Prerendering); the
 * chain reads are "readable" (an RPC URL), so their cards show what they show while reading.
 */
const UNKNOWN_CONFIG = {
  network: "sepolia",
  chainId: 0,
  chainIdHex: "0x0",
  networkLabel: "",
  fork: null,
  explorerUrl: null,
  rpcUrl: "",
  contracts: { proxy: "", implementation: "", owner: "", batchPayments: "", deploymentBlock: 0 },
  token: { decimals: 18 },
  firebase: { projectId: "", apiKey: "", authDomain: "", emulatorUrl: null },
  confirmations: 0,
  batch: { maxRows: 0, chunkSize: 0 },
  multiplierMaxStepPercent: 0,
  mockBank: false,
  devAccounts: null,
} satisfies AppConfig;

/**
 * The signed-in Dashboard (/) as its first render draws it with no wallet connected (a page load
 * never connects one): the page frame and the Dashboard's cards while their figures load, rendered
 * at build time into the page "/" is served as. Signed in as nobody in particular: the session is
 * empty here, and the account menu's place is left empty (Prerendering); no user's data can reach
 * the file.
 */
export function renderDashboardScreen(): string {
  return renderToString(
    <Prerendering.Provider value={true}>
      <ConfigContext.Provider value={UNKNOWN_CONFIG}>
        <QueryClientProvider client={createQueryClient()}>
          <MemoryRouter initialEntries={["/"]}>
            <Routes>
              <Route element={<Frame />}>
                <Route path="/" element={<DashboardRoute />} />
              </Route>
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </ConfigContext.Provider>
    </Prerendering.Provider>,
  );
}
