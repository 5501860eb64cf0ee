import { useQuery } from "@tanstack/react-query";
import { ApiError, call, errorSentence } from "@/lib/api";
import { useSession } from "@/lib/auth/session";
import type { Api, EndpointKey } from "@common/api";
import type { WalletProof } from "@common/api/bankInput";
import type { RequestOf } from "@common/api/endpoint";
import type { Deposit } from "@common/apiTypes";

export type {
  BankAccount,
  BankAccountType,
  BankFaucetLimits,
  BankTerms,
  BankWallet,
  BankWalletChallenge,
  Deposit,
  DepositStatus,
} from "@common/apiTypes";
export type { WalletProof };

/**
 * The mock bank's server reads and changes (/api/bank). Keys are the URL (the app's default queryFn
 * GETs the key's first element) plus the signed-in user, so a second sign-in in the same tab never
 * sees the first user's rows.
 */

/** PRODUCT.md section 9 times the mock: the screen looks again this often while something is under way. */
export const ACCOUNT_POLL_MS = 1500;
export const DEPOSIT_POLL_MS = 1000;
export const HISTORY_POLL_MS = 2000;

export const bankKeys = {
  terms: (uid: string) => ["/api/bank/terms", uid] as const,
  accounts: (uid: string) => ["/api/bank/accounts", uid] as const,
  wallets: (uid: string) => ["/api/bank/wallets", uid] as const,
  deposits: (uid: string) => ["/api/bank/deposits", uid] as const,
  deposit: (uid: string, id: number) => [`/api/bank/deposits/${id}`, uid] as const,
};

export function useUid(): string {
  return useSession((s) => s.user?.uid ?? "signed-out");
}

export const isInFlight = (deposit: Deposit) => deposit.status === "pending" || deposit.status === "processing";

export function useBankTerms() {
  const uid = useUid();
  return useQuery({ queryKey: bankKeys.terms(uid), queryFn: () => call("GET /api/bank/terms") });
}

/** The bank accounts; looked at again every 1.5 s while one is still being verified, then not at all. */
export function useBankAccounts() {
  const uid = useUid();
  return useQuery({
    queryKey: bankKeys.accounts(uid),
    queryFn: async () => (await call("GET /api/bank/accounts")).accounts,
    refetchInterval: (query) => (query.state.data?.some((a) => a.status === "pending") ? ACCOUNT_POLL_MS : false),
  });
}

export function useBankWallets() {
  const uid = useUid();
  return useQuery({
    queryKey: bankKeys.wallets(uid),
    queryFn: async () => (await call("GET /api/bank/wallets")).wallets,
  });
}

/** Deposit History; refreshed every 2 s while a deposit in it is still under way. */
export function useDeposits() {
  const uid = useUid();
  return useQuery({
    queryKey: bankKeys.deposits(uid),
    queryFn: async () => (await call("GET /api/bank/deposits")).deposits,
    refetchInterval: (query) => (query.state.data?.some(isInFlight) ? HISTORY_POLL_MS : false),
  });
}

/** One deposit, every second until it has completed or failed (a failed read is tried again). */
export function useDeposit(id: number | null) {
  const uid = useUid();
  return useQuery({
    queryKey: bankKeys.deposit(uid, id ?? 0),
    enabled: id !== null,
    // Runs only once there is an id (enabled).
    queryFn: async () => (await call("GET /api/bank/deposits/:id", { params: { id: id! } })).deposit,
    refetchInterval: (query) => (query.state.data && !isInFlight(query.state.data) ? false : DEPOSIT_POLL_MS),
  });
}

/** What a POST of the bank sends, as declared (common/api/bank.ts). */
type BodyOf<K extends EndpointKey> = RequestOf<Api[K]>["body"];

export async function addBankAccount(body: BodyOf<"POST /api/bank/accounts">) {
  return (await call("POST /api/bank/accounts", { body })).account;
}

export async function removeBankAccount(id: number) {
  await call("DELETE /api/bank/accounts/:id", { params: { id } });
}

export async function addWallet(body: BodyOf<"POST /api/bank/wallets">) {
  return (await call("POST /api/bank/wallets", { body })).wallet;
}

/** A single-use message (five minutes) to sign with `address`, proving the user controls it. */
export async function requestWalletChallenge(address: string) {
  return call("POST /api/bank/wallets/challenge", { body: { address } });
}

export async function verifyWallet(id: number, proof: WalletProof) {
  return (await call("POST /api/bank/wallets/:id/verify", { params: { id }, body: proof })).wallet;
}

export async function setPrimaryWallet(id: number) {
  return (await call("POST /api/bank/wallets/:id/primary", { params: { id } })).wallet;
}

export async function removeWallet(id: number) {
  await call("DELETE /api/bank/wallets/:id", { params: { id } });
}

export async function requestDeposit(body: BodyOf<"POST /api/bank/deposits">) {
  return (await call("POST /api/bank/deposits", { body })).deposit;
}

/**
 * A refusal as a toast: the server's sentences start with their title ('Duplicate Wallet: ...'),
 * which becomes the toast's title; without one, `fallback` is the title and the sentence the text.
 */
export function serverProblem(error: unknown, fallback: string): { title: string; description: string } {
  const sentence = errorSentence(error, "Unknown error");
  const titled = /^([A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)*): (.+)$/s.exec(sentence);
  if (!titled) return { title: fallback, description: sentence };
  // The server's reasons start in lower case after the title ('Invalid Address: the zero address ...').
  return { title: titled[1], description: titled[2].charAt(0).toUpperCase() + titled[2].slice(1) };
}

/** 503: the mock bank is off (MOCK_BANK, or refused on a mainnet) or a service it needs is away; the sentence says which. */
export const isUnavailable = (error: unknown) => error instanceof ApiError && error.status === 503;
