import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { vi } from "vitest";
import { useToasts } from "@/components/ui/toast";
import { api } from "@/lib/api";
import { useSession } from "@/lib/auth/session";
import { ConfigContext, type AppConfig } from "@/lib/config";
import { initialWalletState, useWallet } from "@/lib/wallet/store";
import { testConfig } from "@/test/config";
import type { BankAccount, BankTerms, BankWallet, Deposit } from "./api";
import type { Api } from "@common/api";
import type { RequestOf } from "@common/api/endpoint";
import BankAccountsPage from "./pages/BankAccountsPage";

/**
 * A stand-in for /api/bank: it keeps rows like the server does and answers as it does, so the page
 * is tested against what it shows. Tests move accounts and deposits along by changing the rows.
 */

export const ERIN = "0x71bE63f3384f5fb98995898A86B02Fb2426c5788";
export const ALICE = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";
export const MINT_TX = "0x" + "ab".repeat(32);

export const TERMS: BankTerms = {
  fee: "0.00",
  rate: "1",
  maxDeposit: "1000000.00",
  verifyMs: 5000,
  processingMs: 3000,
  completeMs: 8000,
  minter: ALICE,
  mode: "local",
  walletProofRequired: false,
  maxAccounts: 10,
  maxWallets: 10,
  faucet: null,
};

/** The terms of MOCK_BANK=faucet: proved wallets only, 1,000 USDX a day per user (250 of it left today). */
export const FAUCET_TERMS: BankTerms = {
  ...TERMS,
  maxDeposit: "1000.00",
  mode: "faucet",
  walletProofRequired: true,
  faucet: {
    window: "utc-day",
    resetsAt: "2025-01-02T00:00:00.000Z",
    perUserDaily: "1,000.00",
    totalDaily: "100,000.00",
    perUserDailyDeposits: 10,
    totalDailyDeposits: 1000,
    userLeftToday: "250.00",
    totalLeftToday: "98,500.00",
    userDepositsLeftToday: 7,
    totalDepositsLeftToday: 990,
  },
};

/** What a wallet signs to prove itself in the fake (the server's text names the dashboard, the user and the address). */
export const challengeText = (address: string) => `USDX Dashboard: prove that you control this wallet.\n\nWallet: ${address}`;

const ISO = "2025-01-01T12:00:00.000Z";

export const account = (over: Partial<BankAccount> = {}): BankAccount => ({
  id: 1,
  name: "Everyday Checking",
  type: "checking",
  lastFour: "6789",
  status: "verified",
  createdAt: ISO,
  verifyAt: ISO,
  verifiedAt: ISO,
  ...over,
});

export const wallet = (over: Partial<BankWallet> = {}): BankWallet => ({
  id: 1,
  name: "Main wallet",
  address: ERIN,
  isPrimary: true,
  balance: "10",
  balanceRaw: (10n * 10n ** 18n).toString(),
  createdAt: ISO,
  verified: false,
  verifiedBy: null,
  ...over,
});

export const deposit = (over: Partial<Deposit> = {}): Deposit => ({
  id: 7,
  amount: "25.00",
  amountRaw: (25n * 10n ** 18n).toString(),
  fee: "0.00",
  rate: "1",
  status: "pending",
  timestamp: ISO,
  processingAt: ISO,
  completeAt: ISO,
  completedAt: null,
  walletAddress: ERIN,
  txHash: null,
  error: null,
  bankAccount: { id: 1, name: "Everyday Checking", lastFour: "6789" },
  ...over,
});

interface Call {
  method: string;
  path: string;
  body: unknown;
}

export interface FakeBank {
  terms: BankTerms;
  accounts: BankAccount[];
  wallets: BankWallet[];
  deposits: Deposit[];
  calls: Call[];
  /** "METHOD /path" answers this status and sentence instead (until deleted). */
  fail: Record<string, { status: number; error: string }>;
  /** "METHOD /path" never answers (a loading state). */
  hang: Set<string>;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const ok = (body: object, status = 200) => json({ success: true, mock: true, ...body }, status);

export function fakeBank(start: Partial<Omit<FakeBank, "calls" | "fail" | "hang">> = {}): FakeBank {
  const bank: FakeBank = { terms: TERMS, accounts: [], wallets: [], deposits: [], calls: [], fail: {}, hang: new Set(), ...start };
  let nextId = 100;
  /** Challenges issued and not yet used: challenge -> address. */
  const challenges = new Map<string, string>();
  const answer = (method: string, path: string, body: unknown): Response => {
    /** The request's JSON body, as the dashboard sends it to that declared endpoint. */
    const sent = <K extends keyof Api>(_key: K) => body as RequestOf<Api[K]>["body"];
    const byId = /\/(\d+)(?:\/primary|\/verify)?$/.exec(path);
    const id = byId ? Number(byId[1]) : NaN;
    const route = `${method} ${path.replace(/\/\d+/, "/:id")}`;
    switch (route) {
      case "GET /api/bank/terms":
        return ok(bank.terms);
      case "GET /api/bank/accounts":
        return ok({ accounts: bank.accounts });
      case "POST /api/bank/accounts": {
        const request = sent("POST /api/bank/accounts");
        const created = account({
          id: nextId++,
          name: request.name,
          type: request.type,
          lastFour: request.accountNumber.slice(-4),
          status: "pending",
          verifiedAt: null,
        });
        bank.accounts = [...bank.accounts, created];
        return ok({ account: created }, 201);
      }
      case "DELETE /api/bank/accounts/:id":
        bank.accounts = bank.accounts.filter((a) => a.id !== id);
        return ok({ id });
      case "GET /api/bank/wallets":
        return ok({ wallets: bank.wallets });
      case "POST /api/bank/wallets/challenge": {
        const request = sent("POST /api/bank/wallets/challenge");
        const challenge = `c${nextId++}`.padEnd(32, "0");
        challenges.set(challenge, request.address);
        return ok({ challenge, message: challengeText(request.address), address: request.address, expiresAt: ISO }, 201);
      }
      case "POST /api/bank/wallets/:id/verify": {
        const request = sent("POST /api/bank/wallets/:id/verify");
        const target = bank.wallets.find((w) => w.id === id)!;
        if (challenges.get(request.challenge) !== target.address || !request.signature)
          return json({ success: false, error: "Wallet Not Verified: the signing request was not signed by it." }, 403);
        challenges.delete(request.challenge);
        bank.wallets = bank.wallets.map((w) => (w.id === id ? { ...w, verified: true, verifiedBy: "signature" } : w));
        return ok({ wallet: bank.wallets.find((w) => w.id === id) });
      }
      case "POST /api/bank/wallets": {
        const request = sent("POST /api/bank/wallets");
        const same = bank.wallets.find((w) => w.address.toLowerCase() === request.address.toLowerCase());
        if (same)
          return json({ success: false, error: `Duplicate Wallet: ${request.address} is already in your wallets as '${same.name}'.` }, 409);
        const proved =
          request.challenge !== undefined && challenges.get(request.challenge) === request.address && Boolean(request.signature);
        if (request.challenge !== undefined) {
          if (!proved)
            return json({ success: false, error: `Wallet Not Verified: the signing request was not signed by ${request.address}.` }, 403);
          challenges.delete(request.challenge);
        }
        const created = wallet({
          id: nextId++,
          name: request.name,
          address: request.address,
          isPrimary: bank.wallets.length === 0,
          balanceRaw: "0",
          balance: "0",
          verified: proved,
          verifiedBy: proved ? "signature" : null,
        });
        bank.wallets = [...bank.wallets, created];
        return ok({ wallet: created }, 201);
      }
      case "POST /api/bank/wallets/:id/primary":
        bank.wallets = bank.wallets.map((w) => ({ ...w, isPrimary: w.id === id }));
        return ok({ wallet: bank.wallets.find((w) => w.id === id) });
      case "DELETE /api/bank/wallets/:id": {
        const target = bank.wallets.find((w) => w.id === id)!;
        if (target.isPrimary)
          return json(
            {
              success: false,
              error: `Cannot Remove Primary Wallet: '${target.name}' is your primary wallet; make another wallet primary first.`,
            },
            409,
          );
        bank.wallets = bank.wallets.filter((w) => w.id !== id);
        return ok({ id });
      }
      case "GET /api/bank/deposits":
        return ok({ deposits: bank.deposits });
      case "GET /api/bank/deposits/:id":
        return ok({ deposit: bank.deposits.find((d) => d.id === id) });
      case "POST /api/bank/deposits": {
        const request = sent("POST /api/bank/deposits");
        const from = bank.accounts.find((a) => a.id === request.bankAccountId)!;
        const to = bank.wallets.find((w) => w.id === request.walletId)!;
        const created = deposit({
          id: nextId++,
          amount: Number(request.amount).toFixed(2),
          amountRaw: (BigInt(Math.round(Number(request.amount) * 100)) * 10n ** 16n).toString(),
          walletAddress: to.address,
          bankAccount: { id: from.id, name: from.name, lastFour: from.lastFour },
        });
        bank.deposits = [created, ...bank.deposits];
        return ok({ deposit: created }, 201);
      }
    }
    return json({ success: false, error: `no stub for ${route}` }, 404);
  };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input);
      const method = init?.method ?? "GET";
      const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
      bank.calls.push({ method, path, body });
      const key = `${method} ${path}`;
      if (bank.hang.has(key)) return new Promise<Response>(() => undefined);
      const failure = bank.fail[key];
      if (failure) return json({ success: false, error: failure.error }, failure.status);
      return answer(method, path, body);
    }),
  );
  return bank;
}

/** How often the page asked for one path (GETs unless said otherwise). */
export const callsTo = (bank: FakeBank, path: string, method = "GET") =>
  bank.calls.filter((c) => c.path === path && c.method === method).length;

function Elsewhere() {
  return <h1>At {useLocation().pathname}</h1>;
}

/** The page at /accounts with the app's query rules (the default queryFn GETs the key's URL). */
export function renderBankPage(config: AppConfig = testConfig()) {
  // Fake timers move with user-event's pauses when a test turns them on.
  const user = userEvent.setup({ advanceTimers: (ms) => (vi.isFakeTimers() ? vi.advanceTimersByTime(ms) : undefined) });
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: Infinity, queryFn: ({ queryKey }) => api(String(queryKey[0])) },
      mutations: { retry: false },
    },
  });
  const utils = render(
    <ConfigContext.Provider value={config}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={["/accounts"]}>
          <Routes>
            <Route path="/accounts" element={<BankAccountsPage />} />
            <Route path="*" element={<Elsewhere />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </ConfigContext.Provider>,
  );
  return { user, queryClient, ...utils };
}

export function connect(address = ERIN) {
  useWallet.setState({
    status: "connected",
    address,
    chainId: 31337,
    provider: { request: vi.fn() },
    walletId: "dev",
    walletName: "Development wallet (erin)",
  });
}

export function resetAll() {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  useToasts.setState({ toasts: [] });
  useWallet.setState({ ...initialWalletState });
  useSession.setState({ user: { uid: "user-1", email: "erin@example.com", wallet: null, admin: false }, ready: true });
}

export const toasts = () => useToasts.getState().toasts;
export const lastToast = () => useToasts.getState().toasts[0];
