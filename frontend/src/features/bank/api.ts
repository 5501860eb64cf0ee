import { useQuery } from "@tanstack/react-query";
import { api, ApiError } from "@/lib/api";
import { useSession } from "@/lib/auth/session";
import type { BankAccount, BankAccountType, BankTerms, BankWallet, BankWalletChallenge, Deposit } from "../../../../common/apiTypes";

export type { BankAccount, BankAccountType, BankFaucetLimits, BankTerms, BankWallet, BankWalletChallenge, Deposit, DepositStatus } from "../../../../common/apiTypes";

/**
 * The mock bank's server reads and changes (/api/bank). Keys are the URL (the app's default queryFn
 * GETs the key's first element) plus the signed-in user, so a second sign-in in the same tab never
 * sees the first user's rows.
 */

/** Spec section 9 times the mock: the screen looks again this often while something is under way. */
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
  return useQuery({ queryKey: bankKeys.terms(uid), queryFn: async () => api<BankTerms & { mock: true }>("/api/bank/terms") });
}

/** The bank accounts; looked at again every 1.5 s while one is still being verified, then not at all. */
export function useBankAccounts() {
  const uid = useUid();
  return useQuery({
    queryKey: bankKeys.accounts(uid),
    queryFn: async () => (await api<{ accounts: BankAccount[] }>("/api/bank/accounts")).accounts,
    refetchInterval: (query) => (query.state.data?.some((a) => a.status === "pending") ? ACCOUNT_POLL_MS : false),
  });
}

export function useBankWallets() {
  const uid = useUid();
  return useQuery({
    queryKey: bankKeys.wallets(uid),
    queryFn: async () => (await api<{ wallets: BankWallet[] }>("/api/bank/wallets")).wallets,
  });
}

/** Deposit History; refreshed every 2 s while a deposit in it is still under way. */
export function useDeposits() {
  const uid = useUid();
  return useQuery({
    queryKey: bankKeys.deposits(uid),
    queryFn: async () => (await api<{ deposits: Deposit[] }>("/api/bank/deposits")).deposits,
    refetchInterval: (query) => (query.state.data?.some(isInFlight) ? HISTORY_POLL_MS : false),
  });
}

/** One deposit, every second until it has completed or failed (a failed read is tried again). */
export function useDeposit(id: number | null) {
  const uid = useUid();
  return useQuery({
    queryKey: bankKeys.deposit(uid, id ?? 0),
    enabled: id !== null,
    queryFn: async () => (await api<{ deposit: Deposit }>(`/api/bank/deposits/${id}`)).deposit,
    refetchInterval: (query) => (query.state.data && !isInFlight(query.state.data) ? false : DEPOSIT_POLL_MS),
  });
}

export async function addBankAccount(body: { name: string; type: BankAccountType; accountNumber: string; routingNumber: string }) {
  return (await api<{ account: BankAccount }>("/api/bank/accounts", { method: "POST", body })).account;
}

export async function removeBankAccount(id: number) {
  await api(`/api/bank/accounts/${id}`, { method: "DELETE" });
}

/** A proof that the user controls a wallet: a server-issued challenge, signed with that wallet. */
export interface WalletProof {
  challenge: string;
  signature: string;
}

export async function addWallet(body: { name: string; address: string } & Partial<WalletProof>) {
  return (await api<{ wallet: BankWallet }>("/api/bank/wallets", { method: "POST", body })).wallet;
}

/** A single-use message (five minutes) to sign with `address`, proving the user controls it. */
export async function requestWalletChallenge(address: string) {
  return api<BankWalletChallenge>("/api/bank/wallets/challenge", { method: "POST", body: { address } });
}

export async function verifyWallet(id: number, proof: WalletProof) {
  return (await api<{ wallet: BankWallet }>(`/api/bank/wallets/${id}/verify`, { method: "POST", body: proof })).wallet;
}

export async function setPrimaryWallet(id: number) {
  return (await api<{ wallet: BankWallet }>(`/api/bank/wallets/${id}/primary`, { method: "POST" })).wallet;
}

export async function removeWallet(id: number) {
  await api(`/api/bank/wallets/${id}`, { method: "DELETE" });
}

export async function requestDeposit(body: { bankAccountId: number; amount: string; walletId: number }) {
  return (await api<{ deposit: Deposit }>("/api/bank/deposits", { method: "POST", body })).deposit;
}

/** The server's sentence without the status prefix the API client adds ('409: Duplicate Wallet: ...'). */
export function serverSentence(error: unknown): string {
  if (!(error instanceof Error)) return "Unknown error";
  return error instanceof ApiError ? error.message.replace(/^\d{3}: /, "") : error.message;
}

/**
 * A refusal as a toast: the server's sentences start with their title ('Duplicate Wallet: ...'),
 * which becomes the toast's title; without one, `fallback` is the title and the sentence the text.
 */
export function serverProblem(error: unknown, fallback: string): { title: string; description: string } {
  const sentence = serverSentence(error);
  const titled = /^([A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)*): (.+)$/s.exec(sentence);
  if (!titled) return { title: fallback, description: sentence };
  // The server's reasons start in lower case after the title ('Invalid Address: the zero address ...').
  return { title: titled[1], description: titled[2].charAt(0).toUpperCase() + titled[2].slice(1) };
}

/** 503: the mock bank is off (MOCK_BANK, or refused on a mainnet) or a service it needs is away; the sentence says which. */
export const isUnavailable = (error: unknown) => error instanceof ApiError && error.status === 503;
