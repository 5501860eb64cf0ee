import { vi } from "vitest";
import { useToasts } from "@/components/ui/toast";
import type { TxOutcome, TxRequest } from "@/lib/tx/runner";
import { useWallet } from "@/lib/wallet/store";
import { useSession } from "@/lib/auth/session";
import type { WriteContracts } from "@/lib/chain/contracts";
import { testConfig } from "@/test/render";

export { renderAtHome, testConfig, testQueryClient } from "@/test/render";

export const ME = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
export const OTHER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

export const connect = (address = ME) =>
  useWallet.setState({
    status: "connected",
    address,
    chainId: testConfig.chainId,
    provider: { request: vi.fn() },
    walletId: "dev",
    walletName: "Dev",
  });

/** A wallet sign-in (SIWE) of `address`: the session the audit request of a multiplier change is sent from. */
export const signInWithWallet = (address = ME) =>
  useSession.setState({ user: { uid: `wallet:${address.toLowerCase()}`, email: null, wallet: address, admin: false }, ready: true });

export const lastToast = () => useToasts.getState().toasts[0];

/** What a TanStack query hook answers, for mocked chain hooks. */
export function queryResult<T>(
  over: Partial<{ data: T; isLoading: boolean; isError: boolean; error: unknown; isFetching: boolean; disabled: boolean }> = {},
) {
  const isLoading = over.isLoading ?? false;
  const disabled = over.disabled ?? false;
  return {
    data: over.data,
    error: over.error ?? null,
    isError: over.isError ?? false,
    isLoading,
    isPending: disabled || isLoading || (over.data === undefined && !over.isError),
    isFetching: over.isFetching ?? isLoading,
    fetchStatus: disabled ? "idle" : isLoading || over.isFetching ? "fetching" : "idle",
    refetch: vi.fn(async () => ({})),
  } as never;
}

/** Replies of the stubbed /api by path (without the query string's order mattering to the test). */
export type ApiRoute = (init: RequestInit | undefined, url: string) => Response | Promise<Response>;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export function stubApi(routes: Record<string, ApiRoute>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const route = Object.entries(routes).find(([prefix]) => url.startsWith(prefix));
    if (!route) return json({ error: `no stub for ${url}` }, 404);
    return route[1](init, url);
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

/** A contract method stand-in: what it is sent with, and its staticCall (the runner's dry run). */
export function methodStandIn() {
  const send = vi.fn(async (..._args: unknown[]) => ({ hash: "0x1" }));
  return Object.assign(send, { send, staticCall: vi.fn(async (..._args: unknown[]) => undefined) });
}

/** Runs a request's call against stand-in contracts and sends it, to see which contract call it builds. */
export async function sentBy(request: TxRequest) {
  const usdx = { transfer: methodStandIn(), setRewardMultiplier: methodStandIn(), addRewardMultiplier: methodStandIn() };
  await request.call({ usdx, batch: {} } as unknown as WriteContracts).send();
  return usdx;
}

export const ok: TxOutcome = { ok: true, hash: "0xabc", error: null };
export const failed: TxOutcome = { ok: false, hash: null, error: "The contract refused" };

/** A promise the test settles, to look at the busy state in between. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

// --- The chain hooks, for test files that vi.mock("@/lib/chain/queries") with chainQueriesMock. ---

export const TOKEN = {
  name: "XFT Digital Dollar",
  symbol: "USDX",
  decimals: 18,
  totalSupply: 1_234_567_890_000_000_000_000_000n, // 1,234,567.89
  totalShares: 1_175_778_942_857_142_857_142_857n,
  rewardMultiplier: 1_050_000_000_000_000_000n, // 1.05
  paused: false,
  readAt: Date.now(),
};

export const ACCOUNT = {
  balance: 1_234_567_890_123_456_789_012n, // 1,234.567890123456789012
  shares: 1_175_778_942_974_720_751_440n,
  blocked: false,
  readAt: Date.now(),
};

/** The module stand-in: `vi.mock("@/lib/chain/queries", () => chainQueriesMock())`. */
export function chainQueriesMock() {
  return {
    chainKeys: {
      all: ["chain"],
      token: ["chain", "token"],
      account: (a: string) => ["chain", "account", a],
      roles: (a: string) => ["chain", "roles", a],
      blocked: (as: string[]) => ["chain", "blocked", ...as],
    },
    useTokenFigures: vi.fn(),
    useAccountFigures: vi.fn(),
    useMyRoles: vi.fn(),
  };
}

type Roles = Partial<
  Record<"DEFAULT_ADMIN_ROLE" | "MINTER_ROLE" | "BURNER_ROLE" | "BLOCKLIST_ROLE" | "ORACLE_ROLE" | "PAUSE_ROLE" | "UPGRADE_ROLE", boolean>
>;

export function rolesResult(address: string | null, roles: Roles | null, loading = false) {
  const flags = roles
    ? {
        DEFAULT_ADMIN_ROLE: false,
        MINTER_ROLE: false,
        BURNER_ROLE: false,
        BLOCKLIST_ROLE: false,
        ORACLE_ROLE: false,
        PAUSE_ROLE: false,
        UPGRADE_ROLE: false,
        ...roles,
      }
    : undefined;
  return {
    address,
    loading,
    flags,
    isAdmin: flags?.DEFAULT_ADMIN_ROLE ?? false,
    hasAnyAdminRole: flags ? Object.values(flags).some(Boolean) : false,
  } as never;
}
