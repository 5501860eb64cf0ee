import type { ReactNode } from "react";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { vi } from "vitest";
import { create } from "zustand";
import { ROLE_NAMES, type RoleName } from "@common/roles";
import { useToasts } from "@/components/ui/toast";
import type { AccountFigures, RoleFlags, TokenFigures } from "@/lib/chain/reads";
import { ConfigContext, type AppConfig } from "@/lib/config";
import type { TxOutcome, TxRequest } from "@/lib/tx/runner";
import { initialWalletState, useWallet } from "@/lib/wallet/store";
import { useSession } from "@/lib/auth/session";
import { testConfig as makeTestConfig } from "@/test/config";

/**
 * Stand-ins for the chain reads and the runner: the screens are tested against what they show and
 * the request they hand to the runner, not against a chain.
 */

export const ME = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
export const OTHER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
export const THIRD = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

export const testConfig: AppConfig = makeTestConfig({
  contracts: {
    proxy: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    implementation: THIRD,
    owner: ME,
    batchPayments: OTHER,
    deploymentBlock: 0,
  },
  devAccounts: null,
});

interface ChainState {
  token: { data?: TokenFigures; isLoading: boolean; isError: boolean };
  accounts: Record<string, AccountFigures>;
  roles: Record<string, RoleFlags>;
  rolesLoading: boolean;
  blocked: Record<string, boolean>;
}

const initialChain: ChainState = { token: { isLoading: false, isError: false }, accounts: {}, roles: {}, rolesLoading: false, blocked: {} };

/** What the mocked chain reads answer; a store, so a test can change it while a screen shows. */
export const useChain = create<ChainState>(() => ({ ...initialChain }));

export const tokenFigures = (paused: boolean): TokenFigures => ({
  name: "XFT Digital Dollar",
  symbol: "USDX",
  decimals: 18,
  totalSupply: 10n ** 24n,
  totalShares: 10n ** 24n,
  rewardMultiplier: 10n ** 18n,
  paused,
  readAt: 0,
});

export const flagsOf = (...held: RoleName[]): RoleFlags =>
  Object.fromEntries(ROLE_NAMES.map((name) => [name, held.includes(name)])) as RoleFlags;

/** vi.mock("@/lib/chain/queries", ...) answers this. */
export const queriesMock = {
  chainKeys: {
    all: ["chain"] as const,
    token: ["chain", "token"] as const,
    account: (a: string) => ["chain", "account", a] as const,
    roles: (a: string) => ["chain", "roles", a] as const,
    blocked: (a: string[]) => ["chain", "blocked", ...a] as const,
  },
  useTokenFigures: () => ({ ...useChain((s) => s.token), refetch: vi.fn() }),
  useAccountFigures: (address: string | null) => {
    const data = useChain((s) => (address ? s.accounts[address] : undefined));
    return { data, isLoading: false, isError: false };
  },
  useRoleFlags: (address: string | null) => ({ data: useChain((s) => (address ? s.roles[address] : undefined)) }),
  useBlockedFlags: (addresses: string[]) => {
    const blocked = useChain((s) => s.blocked);
    const known = addresses.filter((a) => a in blocked);
    return { data: known.length ? Object.fromEntries(known.map((a) => [a, blocked[a]])) : undefined };
  },
  // Mirrors the real hook: the connected wallet's flags, none without a wallet.
  useMyRoles: () => {
    const address = useWallet((s) => (s.status === "connected" ? s.address : null));
    const flags = useChain((s) => (address ? s.roles[address] : undefined));
    const loading = useChain((s) => address !== null && s.rolesLoading);
    return {
      address,
      loading,
      flags,
      isAdmin: flags?.DEFAULT_ADMIN_ROLE ?? false,
      hasAnyAdminRole: flags
        ? flags.DEFAULT_ADMIN_ROLE ||
          flags.MINTER_ROLE ||
          flags.BURNER_ROLE ||
          flags.BLOCKLIST_ROLE ||
          flags.PAUSE_ROLE ||
          flags.ORACLE_ROLE
        : false,
    };
  },
};

/** The runner stand-in: records requests, answers success unless told otherwise. */
export const run = vi.fn<(request: TxRequest) => Promise<TxOutcome>>();
export const runnerMock = { useTransactor: () => run };

export function connect(address = ME, ...roles: RoleName[]) {
  useWallet.setState({ status: "connected", address, chainId: testConfig.chainId, provider: { request: vi.fn() } });
  useChain.setState((s) => ({ roles: { ...s.roles, [address]: flagsOf(...roles) } }));
}

/** A wallet sign-in (SIWE) of `address`: the session the audit request of a multiplier change is sent from. */
export function signInWithWallet(address = ME) {
  useSession.setState({ user: { uid: `wallet:${address.toLowerCase()}`, email: null, wallet: address, admin: false }, ready: true });
}

/** Stubs fetch: each /api path answers the JSON given (or a function of the request). */
export function stubApi(routes: Record<string, unknown | ((init?: RequestInit) => Response | Promise<Response>)>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const answer = routes[path];
    if (answer === undefined) return new Response(JSON.stringify({ error: `no stub for ${path}` }), { status: 404 });
    if (typeof answer === "function") return answer(init);
    return new Response(JSON.stringify(answer), { status: 200, headers: { "content-type": "application/json" } });
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export function resetAll() {
  useToasts.setState({ toasts: [] });
  useWallet.setState({ ...initialWalletState });
  useSession.setState({ user: null, ready: false });
  useChain.setState({ ...initialChain });
  run.mockReset();
  run.mockResolvedValue({ ok: true, hash: "0xabc", error: null });
  vi.unstubAllGlobals();
}

function Elsewhere() {
  return <h1>At {useLocation().pathname}</h1>;
}

/** Renders a screen at /here, with stand-ins for the places it may send the user. */
export function renderScreen(element: ReactNode, path = "/here") {
  const user = userEvent.setup();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const utils = render(
    <ConfigContext.Provider value={testConfig}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path={path} element={element} />
            <Route path="/" element={<h1>Dashboard home</h1>} />
            <Route path="*" element={<Elsewhere />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </ConfigContext.Provider>,
  );
  return { user, queryClient, ...utils };
}

export const toasts = () => useToasts.getState().toasts;
export const lastToast = () => useToasts.getState().toasts[0];

/** A promise the test settles, to look at the busy state in between. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}
