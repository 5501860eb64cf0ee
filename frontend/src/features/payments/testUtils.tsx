import type { ReactNode } from "react";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { vi } from "vitest";
import { useToasts } from "@/components/ui/toast";
import type { WriteContracts } from "@/lib/chain/contracts";
import type { AccountFigures } from "@/lib/chain/reads";
import { ConfigContext, type AppConfig } from "@/lib/config";
import type { TxOutcome, TxRequest } from "@/lib/tx/runner";
import { initialWalletState, useWallet } from "@/lib/wallet/store";
import { testConfig as makeTestConfig } from "@/test/config";
import type { ChunkDetail, ExecuteAnswer, JobDetail, JobSummary, ParsedRecipients } from "./api/types";
import { resetPayments } from "./stores/paymentsStore";
import { plural } from "@common/wording";

/**
 * Stand-ins for the chain, the runner and the API: the Payments screen is tested against what it
 * shows, the requests it hands to the runner and the calls it makes to the server.
 */

export const ME = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";
export const BOB = "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f";
export const CAROL = "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720";
export const DAVE = "0xBcd4042DE499D14e55001CcbB24a551F3b954096";
export const JOB_ID = "6f1c2b8e-1d2a-4c3b-9e4f-5a6b7c8d9e0f";
export const HASH_1 = `0x${"a1".repeat(32)}`;
export const HASH_2 = `0x${"b2".repeat(32)}`;
export const HASH_3 = `0x${"c3".repeat(32)}`;

export const testConfig: AppConfig = makeTestConfig({ devAccounts: null });

const USDX = 10n ** 18n;
export const usdx = (n: number) => BigInt(Math.round(n * 100)) * (USDX / 100n);

/** What the mocked useAccountFigures answers for the connected wallet. */
export const account = { balance: usdx(100) };

/** vi.mock("@/lib/chain/queries", () => queriesMock) */
export const queriesMock = {
  chainKeys: { all: ["chain"], token: ["chain", "token"], account: (a: string) => ["chain", "account", a] },
  useAccountFigures: (address: string | null) => {
    const data: AccountFigures | undefined = address
      ? { balance: account.balance, shares: account.balance, blocked: false, readAt: 0 }
      : undefined;
    return { data, isLoading: false, isError: false, refetch: async () => ({ data }) };
  },
};

/** The runner stand-in: sends against stand-in contracts, reports the hash, answers the outcome given. */
export const run = vi.fn<(request: TxRequest) => Promise<TxOutcome>>();
export const runnerMock = { useTransactor: () => run };

/** A contract method stand-in: what it is sent with, and its staticCall (the runner's dry run). */
const method = () => {
  const send = vi.fn(async (..._args: unknown[]) => ({ hash: HASH_1 }));
  return Object.assign(send, { send, staticCall: vi.fn(async (..._args: unknown[]) => 0n) });
};

export const batchContract = { payWithPermit: method(), pay: method() };

/** What the runner does with a request's call: dry-run it from the payer at the latest block, then send it. */
export async function runCall(request: TxRequest, from = ME) {
  const contracts = { usdx: {}, batch: batchContract } as unknown as WriteContracts;
  await request.call(contracts).staticCall({ from, blockTag: "latest" });
  return request.call(contracts).send();
}

/** Makes the runner dry-run and send each request, call onSent with the next hash, and succeed (or fail at `failAt`). */
export function runnerPays(hashes: string[], failAt: number | null = null) {
  let n = 0;
  run.mockImplementation(async (request) => {
    const i = n++;
    await runCall(request);
    const hash = hashes[i] ?? null;
    if (hash) request.onSent?.(hash);
    if (i === failAt) return { ok: false, hash, error: "The transaction was mined but reverted." };
    return { ok: true, hash, error: null };
  });
}

export const permit = { v: 27, r: `0x${"11".repeat(32)}`, s: `0x${"22".repeat(32)}` };
export const signBatchPermit = vi.fn(async (_config: AppConfig, _wallet: unknown, _owner: string, value: bigint, deadline: bigint) => ({
  value,
  deadline,
  ...permit,
}));
/** An owner's signature of a Safe proposal (lib/chain/contracts.ts's signSafeTx): 65 bytes, v 27. */
export const SAFE_SIGNATURE = `0x${"33".repeat(64)}1b`;
export const signSafeTx = vi.fn(async (..._args: unknown[]) => SAFE_SIGNATURE);
export const contractsMock = { signBatchPermit, signSafeTx };

/** The payer's dry run before the permit (lib/tx/dryRun.ts): passes unless a test says otherwise. */
export const dryRun = vi.fn(async (_call: unknown, _config: AppConfig, _wallet: unknown) => undefined);
export const dryRunMock = { dryRun };

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
  resetPayments();
  run.mockReset();
  for (const m of [batchContract.payWithPermit, batchContract.pay]) {
    m.mockClear();
    m.staticCall.mockReset();
    m.staticCall.mockResolvedValue(0n);
  }
  signBatchPermit.mockClear();
  signSafeTx.mockClear();
  dryRun.mockReset();
  dryRun.mockResolvedValue(undefined);
  account.balance = usdx(100);
  vi.unstubAllGlobals();
}

export const toasts = () => useToasts.getState().toasts;
export const lastToast = () => useToasts.getState().toasts[0];

export function renderPage(element: ReactNode) {
  const user = userEvent.setup({ applyAccept: false });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const utils = render(
    <ConfigContext.Provider value={testConfig}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={["/payments"]}>
          <Routes>
            <Route path="/payments" element={element} />
            <Route path="*" element={<h1>Elsewhere</h1>} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </ConfigContext.Provider>,
  );
  return { user, queryClient, ...utils };
}

// --- The API stand-in ---

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** A route's answer: a function of the request's JSON body (typed by the handler, as that route sends it) and URL, or a fixed value. */
type Handler = ((body: never, url: string) => unknown) | object;

/** Stubs fetch: "METHOD /path" (a prefix of the URL) answers the handler's Response, or its value as JSON. */
export function stubApi(routes: Record<string, Handler>) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    calls.push({ method, url, body });
    // The longest matching prefix wins: '/api/batch/<id>' before '/api/batch'.
    const match = Object.keys(routes)
      .filter((key) => {
        const [m, prefix] = key.split(" ");
        return m === method && url.startsWith(prefix);
      })
      .sort((a, b) => b.length - a.length)[0];
    if (!match) return json({ success: false, error: `no stub for ${method} ${url}` }, 404);
    const handler = routes[match];
    const answer = typeof handler === "function" ? await (handler as (body: unknown, url: string) => unknown)(body, url) : handler;
    return answer instanceof Response ? answer : json(answer);
  });
  vi.stubGlobal("fetch", fetchMock);
  /** The calls to one route; `Body` names the JSON body that route is sent (RequestOf's body for a declared endpoint). */
  const of = <Body = unknown,>(method: string, prefix: string) =>
    calls.filter((c) => c.method === method && c.url.startsWith(prefix)) as { method: string; url: string; body: Body }[];
  return { fetchMock, calls, of };
}

// --- Server answers ---

export function parsed(over: Partial<ParsedRecipients> = {}): ParsedRecipients {
  return {
    validRecipients: [
      { line: 2, name: "Bob", address: BOB, amount: "5" },
      { line: 4, name: "Carol", address: CAROL, amount: "2.5" },
    ],
    invalidEntries: [
      {
        line: 3,
        reason: "Invalid Ethereum address",
        name: "Mallory",
        address: "0x1234",
        amount: "abc",
        errors: [
          { field: "address", reason: "Invalid Ethereum address", detail: "0x1234 is not 0x followed by 40 hex characters." },
          { field: "amount", reason: "Invalid amount", detail: "'abc' is not a plain decimal amount." },
        ],
      },
    ],
    duplicates: [],
    totalRows: 3,
    totalAmount: "7.5",
    totalAmountRaw: usdx(7.5).toString(),
    ...over,
  };
}

/** The address of the n-th recipient of parsedOf and executeAnswer (from 1). */
export const recipient = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

/** `n` valid recipients of 1 USDX each, named R1, R2, ... */
export function parsedOf(n: number): ParsedRecipients {
  return parsed({
    validRecipients: Array.from({ length: n }, (_, i) => ({ line: i + 2, name: `R${i + 1}`, address: recipient(i + 1), amount: "1" })),
    invalidEntries: [],
    totalRows: n,
    totalAmount: String(n),
    totalAmountRaw: (USDX * BigInt(n)).toString(),
  });
}

/** A job of `sizes.length` chunks, chunk i paying sizes[i] recipients 1 USDX each. */
export function executeAnswer(sizes: number[]): ExecuteAnswer {
  let n = 0;
  const chunks = sizes.map((size, index) => {
    const recipients = Array.from({ length: size }, () => recipient(++n));
    return {
      index,
      recipients,
      amounts: recipients.map(() => USDX.toString()),
      total: (USDX * BigInt(size)).toString(),
      reference: `0x${index.toString(16).padStart(64, "0")}`,
    };
  });
  const total = sizes.reduce((a, b) => a + b, 0);
  return {
    success: true,
    status: "processing",
    message: `Batch started: ${plural(total, "recipient")} in ${plural(sizes.length, "transaction")}.`,
    jobId: JOB_ID,
    batchContract: testConfig.contracts.batchPayments,
    token: testConfig.contracts.proxy,
    totalAmount: String(total),
    totalAmountRaw: (USDX * BigInt(total)).toString(),
    chunks,
    payerIsSafe: false,
    multiSendCallOnly: null,
  };
}

export function jobSummary(over: Partial<JobSummary> = {}): JobSummary {
  return {
    jobId: JOB_ID,
    status: "processing",
    payer: ME,
    payerIsSafe: false,
    totalAmount: "7.5",
    totalAmountRaw: usdx(7.5).toString(),
    amount: null,
    recipients: 2,
    recipientsPaid: 0,
    chunks: { total: 1, confirmed: 0, submitted: 0, failed: 0 },
    txHash: null,
    txHashes: [],
    error: null,
    createdAt: "2025-06-01T10:00:00.000Z",
    updatedAt: "2025-06-01T10:00:00.000Z",
    completedAt: null,
    ...over,
  };
}

export function chunkDetail(over: Partial<ChunkDetail> = {}): ChunkDetail {
  return {
    index: 0,
    status: "pending",
    reference: "0x00",
    recipients: 2,
    totalAmount: "7.5",
    txHash: null,
    blockNumber: null,
    error: null,
    proposal: null,
    ...over,
  };
}

export function jobDetail(job: Partial<JobSummary> = {}, chunks: Partial<ChunkDetail>[] = [{}]): JobDetail {
  return { success: true, job: jobSummary(job), chunks: chunks.map((c, index) => chunkDetail({ index, ...c })), recipients: [] };
}

/** The test DOM lays nothing out: give scroll boxes a height so the virtual tables draw a window of rows. */
export function giveElementsHeight(height = 480) {
  Object.defineProperty(HTMLElement.prototype, "clientHeight", { configurable: true, get: () => height });
  Object.defineProperty(HTMLElement.prototype, "clientWidth", { configurable: true, get: () => 1000 });
}

/** A chosen file; jsdom's File has no text(), which the screen reads it with (a file may run there). */
export function csvFile(text: string, name = "recipients.csv") {
  return Object.assign(new File([text], name, { type: "text/csv" }), { text: async () => text });
}

/** A Blob's text through FileReader (jsdom's Blob has no text()). */
export function blobText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}
