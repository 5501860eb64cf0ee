import { beforeEach, describe, expect, it, vi } from "vitest";
import { QueryClient } from "@tanstack/react-query";
import { Interface, JsonRpcProvider, type JsonRpcPayload, type JsonRpcResult, type JsonRpcError } from "ethers";
import { USDX__factory } from "@bindings/factories/contracts/USDX__factory";
import { ROLES } from "@common/roles";
import { recordNotices } from "@/test/notices";
import { testConfig } from "@/test/config";
import { initialWalletState, useWallet } from "@/lib/wallet/store";
import { mintCall, transferCall } from "./calls";
import { runTransaction } from "./runner";
import { useTxModal } from "./store";
import { usePendingEntries } from "./pending";

const ALICE = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";
const BOB = "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f";
const usdx = new Interface(USDX__factory.abi);
const NOT_ASKED = "Nothing was sent: your wallet was not asked to sign.";

/**
 * The dashboard's read provider: a real ethers JsonRpcProvider whose transport is scripted, so the
 * dry run goes through ethers' own request and error handling (a revert comes back as the
 * CALL_EXCEPTION a node's eth_call error becomes). Each eth_call is answered by `node.answer`.
 */
type Answer = { result: string } | { error: { code: number; message: string; data?: unknown } } | "down" | "silent";
const node = {
  chainId: "0x7a69",
  head: 10_000_000,
  answer: (): Answer => ({ result: usdx.encodeFunctionResult("transfer", [true]) }),
  seen: [] as JsonRpcPayload[],
};
class ScriptedNode extends JsonRpcProvider {
  async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    const payloads = Array.isArray(payload) ? payload : [payload];
    node.seen.push(...payloads);
    const fixed: Record<string, () => string> = { eth_chainId: () => node.chainId, eth_blockNumber: () => `0x${node.head.toString(16)}` };
    const answers = payloads.map((p) => (fixed[p.method] ? { result: fixed[p.method]() } : node.answer()));
    if (answers.includes("down")) throw Object.assign(new Error("fetch failed"), { code: "ECONNREFUSED" });
    if (answers.includes("silent")) return new Promise(() => undefined);
    // ethers types _send's answers as results only, though it reads an error answer from the same list.
    return payloads.map(
      (p, i) => ({ id: p.id, ...(answers[i] as Exclude<Answer, string>) }) as JsonRpcResult | JsonRpcError as JsonRpcResult,
    );
  }
}
const reader = new ScriptedNode("http://rpc.invalid", 31337, { staticNetwork: true, cacheTimeout: -1 });

/** The wallet's side: contracts bound to its signer, as scripted stand-ins (what was sent, with what). */
const sent = { transfer: vi.fn(), mint: vi.fn() };
const signerContracts = {
  usdx: { transfer: { name: "transfer", send: sent.transfer }, mint: { name: "mint", send: sent.mint } },
  batch: {},
};
vi.mock("@/lib/chain/contracts", async (original) => ({
  ...(await original<typeof import("@/lib/chain/contracts")>()),
  readProvider: () => reader,
  writeContracts: async () => signerContracts,
}));

const config = testConfig();
const mined = (status: number) => ({ hash: "0x" + "ab".repeat(32), wait: async () => ({ status }) });
const notices = recordNotices();
const lastToast = notices.last;
const calls = () => node.seen.filter((p) => p.method === "eth_call");
const revertWith = (name: string, args: unknown[] = []): Answer => ({
  error: { code: 3, message: "execution reverted", data: usdx.encodeErrorResult(name, args) },
});

function connect(chainId = 31337) {
  const provider = {
    request: vi.fn(async ({ method }: { method: string }): Promise<unknown> => (method === "eth_chainId" ? "0x7a69" : null)),
  };
  useWallet.setState({ status: "connected", address: ALICE, chainId, provider, walletId: "x", walletName: "X" });
  return provider;
}

beforeEach(() => {
  notices.clear();
  useWallet.setState({ ...initialWalletState });
  useTxModal.getState().hide();
  sent.transfer.mockReset();
  sent.mint.mockReset();
  usePendingEntries.setState({ entries: [] });
  node.seen = [];
  node.chainId = "0x7a69";
  node.head = 10_000_000; // far ahead of any block a test's transaction was "mined" in
  node.answer = () => ({ result: usdx.encodeFunctionResult("transfer", [true]) });
});

describe("the transaction runner", () => {
  it("without a wallet: 'Wallet not connected' with the action's purpose, and nothing is sent", async () => {
    const outcome = await runTransaction(mintCall(BOB, 1n), config, new QueryClient());
    expect(outcome.ok).toBe(false);
    expect(lastToast()).toMatchObject({ title: "Wallet not connected", description: "Please connect your wallet to mint tokens" });
    expect(sent.mint).not.toHaveBeenCalled();
    expect(calls()).toHaveLength(0);
    expect(useTxModal.getState().isOpen).toBe(false);
  });

  it("dry-runs the call from the wallet's address at the latest block, then sends the same method and arguments; success with the hash, toast, refresh", async () => {
    connect();
    sent.transfer.mockImplementation(async () => {
      expect(calls()).toHaveLength(1); // the simulation came first
      return mined(1);
    });
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, "invalidateQueries");
    const outcome = await runTransaction(transferCall(BOB, 1500000000000000000n), config, client);

    const [tx, blockTag] = calls()[0].params as [{ from: string; to: string; data: string }, string];
    expect(blockTag).toBe("latest");
    expect(tx.from.toLowerCase()).toBe(ALICE.toLowerCase());
    expect(tx.to.toLowerCase()).toBe(config.contracts.proxy.toLowerCase());
    expect(tx.data).toBe(usdx.encodeFunctionData("transfer", [BOB, 1500000000000000000n]));
    expect(sent.transfer).toHaveBeenCalledWith(BOB, 1500000000000000000n);

    expect(outcome).toEqual({ ok: true, hash: "0x" + "ab".repeat(32), error: null });
    expect(useTxModal.getState()).toMatchObject({
      isOpen: true,
      status: "success",
      transactionHash: outcome.hash,
      action: "Transfer 1.5 USDX to 0x2361...1E8f",
    });
    expect(lastToast()).toMatchObject({ title: "Transfer successful", description: `1.5 USDX transferred to ${BOB}` });
    expect(invalidate).toHaveBeenCalled();
  });

  it("a dry run that reverts: the wallet is never asked, and the failure toast and the modal give the contract's reason in words", async () => {
    const wallet = connect();
    node.answer = () => revertWith("USDXPausedTransfers");
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, "invalidateQueries");
    const outcome = await runTransaction(mintCall(BOB, 1n), config, client);
    // The page's view was out of date: its chain reads are read again.
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ["chain"] });
    const sentence = `USDX is paused: no tokens can be transferred, minted or burned until it is unpaused. ${NOT_ASKED}`;
    expect(outcome).toMatchObject({ ok: false, hash: null, error: sentence });
    expect(sent.mint).not.toHaveBeenCalled();
    expect(wallet.request).not.toHaveBeenCalled();
    expect(useTxModal.getState()).toMatchObject({ isOpen: true, status: "not-sent", errorMessage: sentence, transactionHash: null });
    expect(lastToast()).toMatchObject({ title: "Mint failed", description: sentence, variant: "destructive" });
  });

  it.each([
    [
      "a node's error with the data inside (Hardhat)",
      {
        error: {
          code: -32603,
          message: "Error: VM Exception",
          data: {
            message: "reverted",
            data: usdx.encodeErrorResult("ERC20InsufficientBalance", [ALICE, 2n * 10n ** 18n, 5n * 10n ** 18n]),
          },
        },
      },
    ],
    [
      "a node's error with the data beside it (geth)",
      {
        error: {
          code: 3,
          message: "execution reverted",
          data: usdx.encodeErrorResult("ERC20InsufficientBalance", [ALICE, 2n * 10n ** 18n, 5n * 10n ** 18n]),
        },
      },
    ],
  ] as [string, Answer][])("decodes the balance error with its figures from %s", async (_shape, answer) => {
    connect();
    node.answer = () => answer;
    await runTransaction(transferCall(BOB, 5n * 10n ** 18n), config, new QueryClient());
    expect(lastToast()).toMatchObject({
      title: "Transfer failed",
      description: `Insufficient balance: ${ALICE} has 2 USDX, and 5 USDX is needed. ${NOT_ASKED}`,
    });
    expect(sent.transfer).not.toHaveBeenCalled();
  });

  it("names a missing role in the refusal", async () => {
    connect();
    node.answer = () => revertWith("AccessControlUnauthorizedAccount", [ALICE, ROLES.MINTER_ROLE]);
    await runTransaction(mintCall(BOB, 1n), config, new QueryClient());
    expect(lastToast()?.description).toBe(`The account ${ALICE} does not hold MINTER_ROLE, which this action needs. ${NOT_ASKED}`);
  });

  it("a revert without a reason is still a refusal, said as such", async () => {
    connect();
    node.answer = () => ({ error: { code: 3, message: "execution reverted" } });
    await runTransaction(mintCall(BOB, 1n), config, new QueryClient());
    expect(lastToast()?.description).toBe(`The contract refused the call without giving a reason. ${NOT_ASKED}`);
    expect(sent.mint).not.toHaveBeenCalled();
  });

  it("a check that cannot be made (the RPC node is down) stops the write and says so; the wallet is not asked", async () => {
    const wallet = connect();
    node.answer = () => "down";
    const outcome = await runTransaction(transferCall(BOB, 1n), config, new QueryClient());
    expect(outcome.ok).toBe(false);
    expect(sent.transfer).not.toHaveBeenCalled();
    expect(wallet.request).not.toHaveBeenCalled();
    expect(lastToast()).toMatchObject({ title: "Transfer failed", variant: "destructive" });
    expect(lastToast()?.description).toMatch(
      /^The transaction could not be checked against the latest block \(.+\), so it was not sent and your wallet was not asked to sign\. Try again in a moment\.$/,
    );
    expect(useTxModal.getState()).toMatchObject({ status: "not-sent" });
  });

  it("a node that does not answer is given up on after 20 s, the same way", async () => {
    vi.useFakeTimers();
    try {
      connect();
      node.answer = () => "silent";
      const run = runTransaction(transferCall(BOB, 1n), config, new QueryClient());
      await vi.advanceTimersByTimeAsync(20_000);
      expect((await run).error).toContain("(the RPC node did not answer within 20 s)");
      expect(sent.transfer).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it("waits for a read provider behind the block of this page's last transaction, and says so if it stays behind", async () => {
    connect();
    sent.transfer.mockResolvedValue({ hash: "0x" + "ab".repeat(32), wait: async () => ({ status: 1, blockNumber: 1001 }) });
    node.head = 1001;
    expect((await runTransaction(transferCall(BOB, 1n), config, new QueryClient())).ok).toBe(true);
    vi.useFakeTimers();
    try {
      node.head = 1000; // another node of a public RPC, a block behind
      const run = runTransaction(transferCall(BOB, 1n), config, new QueryClient());
      await vi.advanceTimersByTimeAsync(3_000);
      expect(calls()).toHaveLength(1); // only the first write's dry run so far
      node.head = 1001;
      await vi.advanceTimersByTimeAsync(1_000);
      expect((await run).ok).toBe(true);
      expect(calls()).toHaveLength(2);

      node.head = 1000;
      const stuck = runTransaction(transferCall(BOB, 1n), config, new QueryClient());
      await vi.advanceTimersByTimeAsync(20_000);
      expect((await stuck).error).toContain("(the RPC node is at block 1000, behind block 1001 where your last transaction was mined)");
    } finally {
      vi.useRealTimers();
    }
  });

  it("an RPC node on another chain is not trusted with the check", async () => {
    connect();
    node.chainId = "0x1";
    await runTransaction(transferCall(BOB, 1n), config, new QueryClient());
    expect(lastToast()?.description).toContain(
      "(the RPC node answers for chain 1, not Hardhat Local (31337); check the RPC URL in Settings)",
    );
    expect(sent.transfer).not.toHaveBeenCalled();
  });

  it("says the person rejected it in the wallet", async () => {
    connect();
    sent.mint.mockRejectedValue(Object.assign(new Error("user rejected action"), { code: "ACTION_REJECTED" }));
    await runTransaction(mintCall(BOB, 1n), config, new QueryClient());
    expect(lastToast()).toMatchObject({ title: "Mint failed", description: "You rejected the request in your wallet." });
    expect(useTxModal.getState()).toMatchObject({ status: "error" });
  });

  it("reports a transaction mined as reverted as a failure", async () => {
    connect();
    sent.transfer.mockResolvedValue(mined(0));
    const outcome = await runTransaction(transferCall(BOB, 1n), config, new QueryClient());
    expect(outcome.ok).toBe(false);
    expect(useTxModal.getState()).toMatchObject({ status: "error", transactionHash: "0x" + "ab".repeat(32) });
  });

  it("reads the wallet's chain again just before sending: a wallet moved to another network during the dry run sends nothing, and says why", async () => {
    const provider = connect();
    // The wallet answers the dashboard's chain until the dry run's eth_call, then another one (the person switched it meanwhile).
    provider.request.mockImplementation(async ({ method }: { method: string }) =>
      method === "eth_chainId" ? (calls().length > 0 ? "0xaa36a7" : "0x7a69") : null,
    );
    const outcome = await runTransaction(transferCall(BOB, 1n), config, new QueryClient());
    const sentence =
      "Your wallet switched to another network while the transaction was being checked: switch back to Hardhat Local and try again. " +
      NOT_ASKED;
    expect(calls()).toHaveLength(1);
    expect(sent.transfer).not.toHaveBeenCalled();
    expect(outcome).toEqual({ ok: false, hash: null, error: sentence });
    expect(lastToast()).toMatchObject({ title: "Transfer failed", description: sentence, variant: "destructive" });
    expect(useTxModal.getState()).toMatchObject({ isOpen: true, status: "not-sent", errorMessage: sentence });
  });

  it("moves a wallet on the wrong chain once the dry run passed, and stops there if it refuses (the modal closes; 'Network Error' says why)", async () => {
    const provider = connect(1);
    provider.request.mockImplementation(async ({ method }: { method: string }) => {
      if (method === "eth_chainId") return "0x1";
      throw Object.assign(new Error("rejected"), { code: 4001 });
    });
    const outcome = await runTransaction(transferCall(BOB, 1n), config, new QueryClient());
    expect(outcome.ok).toBe(false);
    expect(calls()).toHaveLength(1);
    expect(sent.transfer).not.toHaveBeenCalled();
    expect(lastToast()).toMatchObject({ title: "Network Error" });
    expect(useTxModal.getState().isOpen).toBe(false);
  });
});

describe("on a network whose blocks are final only some blocks deep (Sepolia)", () => {
  const HASH = "0x" + "cd".repeat(32);

  /** A transaction mined in block 100, and a chain whose head moves one block per look. */
  function minedOnChain(heads: number[]) {
    const seen: number[] = [];
    const provider = {
      getBlockNumber: vi.fn(async () => {
        const head = heads.length > 1 ? heads.shift()! : heads[0];
        seen.push(head);
        return head;
      }),
      getTransactionReceipt: vi.fn(async () => ({ blockNumber: 100, status: 1 })),
    };
    return { tx: { hash: HASH, provider, wait: async () => ({ status: 1, blockNumber: 100 }) }, seen };
  }

  it("is 'checking', then 'confirming', with the blocks seen out of those needed, until the last one; then confirmed", async () => {
    vi.useFakeTimers();
    try {
      connect();
      const { tx } = minedOnChain([100, 102, 104, 105]);
      sent.transfer.mockResolvedValue(tx);
      const states: string[] = [];
      const unsubscribe = useTxModal.subscribe((s) =>
        states.push(`${s.status}${s.confirmations ? ` ${s.confirmations.seen}/${s.confirmations.needed} @${s.confirmations.block}` : ""}`),
      );
      const run = runTransaction(transferCall(BOB, 2n * 10n ** 18n), testConfig({ confirmations: 5 }), new QueryClient());
      await vi.runAllTimersAsync();
      const outcome = await run;
      unsubscribe();
      expect(outcome.ok).toBe(true);
      expect([...new Set(states)]).toEqual([
        "checking",
        "pending",
        "confirming 0/5 @100",
        "confirming 2/5 @100",
        "confirming 4/5 @100",
        "confirming 5/5 @100",
        "success",
      ]);
      expect(lastToast()).toMatchObject({ title: "Transfer successful" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the transfer as a pending history entry from the moment it is sent, and forgets it if it fails", async () => {
    connect();
    const pending = new Promise<{ status: number }>(() => undefined); // never mined
    sent.transfer.mockResolvedValue({ hash: HASH, provider: {}, wait: () => pending });
    void runTransaction(transferCall(BOB, 3n), testConfig({ confirmations: 5 }), new QueryClient());
    await vi.waitFor(() => expect(usePendingEntries.getState().entries).toHaveLength(1));
    expect(usePendingEntries.getState().entries[0]).toMatchObject({ hash: HASH, type: "Transfer", from: ALICE, to: BOB, amountRaw: "3" });

    sent.transfer.mockResolvedValue(mined(0));
    usePendingEntries.setState({ entries: [] });
    await runTransaction(transferCall(BOB, 3n), config, new QueryClient());
    expect(usePendingEntries.getState().entries).toEqual([]);
  });

  it("does not wait for confirmations for a caller without the modal (a batch chunk: the server decides it)", async () => {
    connect();
    const { tx } = minedOnChain([100]);
    sent.transfer.mockResolvedValue(tx);
    const outcome = await runTransaction({ ...transferCall(BOB, 1n), modal: false }, testConfig({ confirmations: 5 }), new QueryClient());
    expect(outcome.ok).toBe(true);
    expect(tx.provider.getBlockNumber).not.toHaveBeenCalled();
    expect(useTxModal.getState().isOpen).toBe(false);
  });
});

describe("the status modal's state", () => {
  it("hiding resets it to pending with no message or hash (PRODUCT.md section 4)", () => {
    useTxModal.setState({ isOpen: true, status: "error", errorMessage: "x", transactionHash: "0x1", action: "a" });
    useTxModal.getState().hide();
    expect(useTxModal.getState()).toMatchObject({ isOpen: false, status: "pending", errorMessage: null, transactionHash: null });
  });
});
