import { createElement, lazy as reactLazy, Suspense, useState, type ComponentType, type ReactNode } from "react";
import { createBrowserRouter, type RouteObject } from "react-router-dom";
import { Spinner } from "@/components/ui/spinner";
import { RedirectRules } from "./guards";
import { AppShell } from "./AppShell";
import NotFound from "./pages/NotFound";
// /login is where every signed-out visit lands: part of the first download (about 8 KB gzipped),
// it draws as soon as the sign-in check is done instead of a round trip for its chunks later.
import Login from "@/features/auth/pages/LoginPage";

// While a page's code loads, its place is a screen high: the frame's footer waits below the fold
// instead of showing and then being pushed down by the page (a layout shift, which Lighthouse counts).
const page = (node: ReactNode) => (
  <Suspense
    fallback={
      <div className="flex min-h-screen justify-center p-8">
        <Spinner />
      </div>
    }
  >
    {node}
  </Suspense>
);

/**
 * React.lazy for the routes' pages, which also renders at once a page whose module has loaded
 * before it is first drawn (`preload()`, or an earlier visit): React.lazy suspends on its first
 * render even then, and its fallback would take the place of the page "/" is drawn with from the
 * HTML for a frame. Which of the two it renders is decided once, at mount: switching later would
 * remount the page.
 */
function lazy(load: () => Promise<{ default: ComponentType }>): ComponentType & { preload(): Promise<void> } {
  let loaded: ComponentType | null = null;
  const fetchModule = () =>
    load().then((m) => {
      loaded = m.default;
      return m;
    });
  const Lazy = reactLazy(fetchModule);
  function Page() {
    const [component] = useState<ComponentType>(() => loaded ?? Lazy);
    return createElement(component);
  }
  return Object.assign(Page, { preload: () => fetchModule().then(() => undefined) });
}

// The frame (header, navigation, the wallet and account menus) is for signed-in pages: /login and
// the other pages outside it do not load it.
const Frame = lazy(() => import("./layout/Frame").then((m) => ({ default: m.Frame })));
const Dashboard = lazy(() => import("./pages/DashboardRoute"));
const Transactions = lazy(() => import("@/features/transactions/pages/TransactionsPage"));
const Holders = lazy(() => import("@/features/holders/pages/HoldersPage"));
const Roles = lazy(() => import("@/features/admin/pages/RoleManagementPage"));
const Approvals = lazy(() => import("@/features/safes/pages/ApprovalsPage"));
const Blocklist = lazy(() => import("@/features/admin/pages/BlocklistPage"));
const Accounts = lazy(() => import("@/features/bank/pages/BankAccountsPage"));
const Payments = lazy(() => import("@/features/payments/pages/PaymentsPage"));
const Contacts = lazy(() => import("@/features/contacts/pages/ContactsPage"));
const Settings = lazy(() => import("@/features/settings/pages/SettingsPage"));
const TransactionView = lazy(() => import("@/features/explorer/pages/TransactionPage"));
const BlockView = lazy(() => import("@/features/explorer/pages/BlockPage"));
const Admin = lazy(() => import("@/features/admin/pages/AdminPanelPage"));
const Alerts = lazy(() => import("@/features/alerts/pages/AlertsPage"));
const Scenarios = lazy(() => import("@/features/scenarios/pages/ScenariosPage"));
const ForgotPassword = lazy(() => import("@/features/auth/pages/ForgotPasswordPage"));
const AuthPage = lazy(() => import("@/features/auth/pages/AuthPage"));
const Monitoring = lazy(() => import("@/features/monitoring/pages/MonitoringPage"));
// The API viewer (swagger-ui) is large: this page's chunk is the only one that loads it.
const Docs = lazy(() => import("@/features/docs/pages/DocsPage"));

/**
 * Starts fetching the Dashboard, where signed-in visits land, with the configuration: the router
 * renders it only once the configuration and the sign-in check are in, and fetching it then would
 * add a round trip after them. Resolves once both modules have loaded (at once elsewhere): rendered
 * after that, the frame and the Dashboard draw in the app's first render, with no spinner between
 * the page drawn from the HTML and them.
 */
export function prefetchLandingPage(pathname: string): Promise<void> {
  if (pathname !== "/") return Promise.resolve();
  return Promise.all([Frame.preload(), Dashboard.preload()]).then(() => undefined);
}

/** PRODUCT.md section 2's route table. */
export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    children: [
      {
        element: <RedirectRules />,
        children: [
          { path: "/login", element: page(<Login />) },
          { path: "/forgot-password", element: page(<ForgotPassword />) },
          {
            element: page(<Frame />),
            children: [
              { path: "/", element: page(<Dashboard />) },
              { path: "/transactions", element: page(<Transactions />) },
              { path: "/holders", element: page(<Holders />) },
              { path: "/roles", element: page(<Roles />) },
              // Proposals to the Safes that hold USDX roles, for their owners to approve, execute or reject.
              { path: "/approvals", element: page(<Approvals />) },
              { path: "/blocklist", element: page(<Blocklist />) },
              { path: "/accounts", element: page(<Accounts />) },
              { path: "/payments", element: page(<Payments />) },
              { path: "/contacts", element: page(<Contacts />) },
              { path: "/settings", element: page(<Settings />) },
              { path: "/admin", element: page(<Admin />) },
              // Operators' alerts: for the server's admins (the admin claim), who see its link.
              { path: "/alerts", element: page(<Alerts />) },
              // For testers: linked only on the local chain; elsewhere the server's refusal shows here.
              { path: "/scenarios", element: page(<Scenarios />) },
              // The local chain has no block explorer: transaction and block links come here.
              { path: "/tx/:hash", element: page(<TransactionView />) },
              { path: "/block/:number", element: page(<BlockView />) },
            ],
          },
        ],
      },
      { path: "/auth", element: page(<AuthPage />) },
      // Open signed out (PRODUCT.md section 2, Routes): an operator may have no account. Outside the redirect rules and the frame.
      { path: "/monitoring", element: page(<Monitoring />) },
      // Open signed out too: an integrator may have no account.
      { path: "/docs", element: page(<Docs />) },
      { path: "*", element: <NotFound /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
