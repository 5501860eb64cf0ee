import { beforeEach, describe, expect, it, vi } from "vitest";
import { QueryClient } from "@tanstack/react-query";
import { Interface } from "ethers";
import { USDX__factory } from "@bindings/factories/contracts/USDX__factory";
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

// The runner binds the contracts to the wallet's signer; here they are scripted stand-ins.
const contract = { transfer: vi.fn(), mint: vi.fn() };
vi.mock("@/lib/chain/contracts", () => ({ writeContracts: async () => ({ usdx: contract, batch: {} }) }));

const config = testConfig();
const mined = (status: number) => ({ hash: "0x" + "ab".repeat(32), wait: async () => ({ status }) });
const notices = recordNotices();
const lastToast = notices.last;

function connect(chainId = 31337) {
  const provider = { request: vi.fn(async ({ method }: { method: string }): Promise<unknown> => (method === "eth_chainId" ? "0x7a69" : null)) };
  useWallet.setState({ status: "connected", address: ALICE, chainId, provider, walletId: "x", walletName: "X" });
  return provider;
}

beforeEach(() => {
  notices.clear();
  useWallet.setState({ ...initialWalletState });
  useTxModal.getState().hide();
  contract.transfer.mockReset();
  contract.mint.mockReset();
  usePendingEntries.setState({ entries: [] });
});

describe("the transaction runner", () => {
  it("without a wallet: 'Wallet not connected' with the action's purpose, and nothing is sent", async () => {
    const outcome = await runTransaction(mintCall(BOB, 1n), config, new QueryClient());
    expect(outcome.ok).toBe(false);
    expect(lastToast()).toMatchObject({ title: "Wallet not connected", description: "Please connect your wallet to mint tokens" });
    expect(contract.mint).not.toHaveBeenCalled();
    expect(useTxModal.getState().isOpen).toBe(false);
  });

  it("sends, waits for the receipt, shows success with the hash, toasts and refreshes every query", async () => {
    connect();
    contract.transfer.mockResolvedValue(mined(1));
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, "invalidateQueries");
    const outcome = await runTransaction(transferCall(BOB, 1500000000000000000n), config, client);
    expect(contract.transfer).toHaveBeenCalledWith(BOB, 1500000000000000000n);
    expect(outcome).toEqual({ ok: true, hash: "0x" + "ab".repeat(32), error: null });
    expect(useTxModal.getState()).toMatchObject({ isOpen: true, status: "success", transactionHash: outcome.hash, action: "Transfer 1.5 USDX to 0x2361...1E8f" });
    expect(lastToast()).toMatchObject({ title: "Transfer successful", description: `1.5 USDX transferred to ${BOB}` });
    expect(invalidate).toHaveBeenCalled();
  });

  it("turns a USDX custom error into words, in the modal and the failure toast", async () => {
    connect();
    const data = usdx.encodeErrorResult("USDXPausedTransfers", []);
    contract.mint.mockRejectedValue(Object.assign(new Error("execution reverted"), { code: "CALL_EXCEPTION", data }));
    const outcome = await runTransaction(mintCall(BOB, 1n), config, new QueryClient());
    const sentence = "USDX is paused: no tokens can be transferred, minted or burned until it is unpaused.";
    expect(outcome).toMatchObject({ ok: false, error: sentence });
    expect(useTxModal.getState()).toMatchObject({ isOpen: true, status: "error", errorMessage: sentence });
    expect(lastToast()).toMatchObject({ title: "Mint failed", description: sentence, variant: "destructive" });
  });

  it("says the person rejected it in the wallet", async () => {
    connect();
    contract.mint.mockRejectedValue(Object.assign(new Error("user rejected action"), { code: "ACTION_REJECTED" }));
    await runTransaction(mintCall(BOB, 1n), config, new QueryClient());
    expect(lastToast()).toMatchObject({ title: "Mint failed", description: "You rejected the request in your wallet." });
  });

  it("reports a transaction mined as reverted as a failure", async () => {
    connect();
    contract.transfer.mockResolvedValue(mined(0));
    const outcome = await runTransaction(transferCall(BOB, 1n), config, new QueryClient());
    expect(outcome.ok).toBe(false);
    expect(useTxModal.getState()).toMatchObject({ status: "error", transactionHash: "0x" + "ab".repeat(32) });
  });

  it("moves a wallet on the wrong chain first, and stops there if it refuses", async () => {
    const provider = connect(1);
    provider.request.mockImplementation(async ({ method }: { method: string }) => {
      if (method === "eth_chainId") return "0x1";
      throw Object.assign(new Error("rejected"), { code: 4001 });
    });
    const outcome = await runTransaction(transferCall(BOB, 1n), config, new QueryClient());
    expect(outcome.ok).toBe(false);
    expect(contract.transfer).not.toHaveBeenCalled();
    expect(lastToast()).toMatchObject({ title: "Network Error" });
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

  it("is 'confirming', with the blocks seen out of those needed, until the last one; then confirmed", async () => {
    vi.useFakeTimers();
    try {
      connect();
      const { tx } = minedOnChain([100, 102, 104, 105]);
      contract.transfer.mockResolvedValue(tx);
      const states: string[] = [];
      const unsubscribe = useTxModal.subscribe((s) => states.push(`${s.status}${s.confirmations ? ` ${s.confirmations.seen}/${s.confirmations.needed} @${s.confirmations.block}` : ""}`));
      const run = runTransaction(transferCall(BOB, 2n * 10n ** 18n), testConfig({ confirmations: 5 }), new QueryClient());
      await vi.runAllTimersAsync();
      const outcome = await run;
      unsubscribe();
      expect(outcome.ok).toBe(true);
      expect([...new Set(states)]).toEqual(["pending", "confirming 0/5 @100", "confirming 2/5 @100", "confirming 4/5 @100", "confirming 5/5 @100", "success"]);
      expect(lastToast()).toMatchObject({ title: "Transfer successful" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the transfer as a pending history entry from the moment it is sent, and forgets it if it fails", async () => {
    connect();
    const pending = new Promise<{ status: number }>(() => undefined); // never mined
    contract.transfer.mockResolvedValue({ hash: HASH, provider: {}, wait: () => pending });
    void runTransaction(transferCall(BOB, 3n), testConfig({ confirmations: 5 }), new QueryClient());
    await vi.waitFor(() => expect(usePendingEntries.getState().entries).toHaveLength(1));
    expect(usePendingEntries.getState().entries[0]).toMatchObject({ hash: HASH, type: "Transfer", from: ALICE, to: BOB, amountRaw: "3" });

    contract.transfer.mockResolvedValue(mined(0));
    usePendingEntries.setState({ entries: [] });
    await runTransaction(transferCall(BOB, 3n), config, new QueryClient());
    expect(usePendingEntries.getState().entries).toEqual([]);
  });

  it("does not wait for confirmations for a caller without the modal (a batch chunk: the server decides it)", async () => {
    connect();
    const { tx } = minedOnChain([100]);
    contract.transfer.mockResolvedValue(tx);
    const outcome = await runTransaction({ ...transferCall(BOB, 1n), modal: false }, testConfig({ confirmations: 5 }), new QueryClient());
    expect(outcome.ok).toBe(true);
    expect(tx.provider.getBlockNumber).not.toHaveBeenCalled();
  });
});

describe("the status modal's state", () => {
  it("hiding resets it to pending with no message or hash (PRODUCT.md section 4)", () => {
    useTxModal.setState({ isOpen: true, status: "error", errorMessage: "x", transactionHash: "0x1", action: "a" });
    useTxModal.getState().hide();
    expect(useTxModal.getState()).toMatchObject({ isOpen: false, status: "pending", errorMessage: null, transactionHash: null });
  });
});
