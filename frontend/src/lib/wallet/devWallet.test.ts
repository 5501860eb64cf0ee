import { describe, expect, it, vi } from "vitest";
import { createDevWallet } from "./devWallet";

const ALICE = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";
const BOB = "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f";

/** A stand-in for the Hardhat node's JSON-RPC endpoint: records what reaches it. */
function node(answer: (method: string, params: unknown[]) => { result?: unknown; error?: unknown }) {
  const calls: { method: string; params: unknown[] }[] = [];
  const fetcher = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { id: number; method: string; params: unknown[] };
    calls.push({ method: body.method, params: body.params });
    return new Response(JSON.stringify({ jsonrpc: "2.0", id: body.id, ...answer(body.method, body.params) }));
  });
  return { calls, fetcher: fetcher as unknown as typeof fetch };
}

describe("the development wallet", () => {
  it("shares only the account it acts as, without asking the node", async () => {
    const { calls, fetcher } = node(() => ({ result: null }));
    const wallet = createDevWallet("http://node", ALICE, fetcher);
    expect(await wallet.request({ method: "eth_requestAccounts" })).toEqual([ALICE]);
    expect(await wallet.request({ method: "eth_accounts" })).toEqual([ALICE]);
    expect(calls).toEqual([]);
  });

  it("sends transactions from its own account, whatever the page asked", async () => {
    const { calls, fetcher } = node(() => ({ result: "0xabc" }));
    const wallet = createDevWallet("http://node", ALICE, fetcher);
    expect(await wallet.request({ method: "eth_sendTransaction", params: [{ from: BOB, to: BOB, data: "0x" }] })).toBe("0xabc");
    expect(calls[0]).toEqual({ method: "eth_sendTransaction", params: [{ from: ALICE, to: BOB, data: "0x" }] });
  });

  it("passes the node's error code and revert data on, so the runner can decode the custom error", async () => {
    const { fetcher } = node(() => ({ error: { code: -32603, message: "reverted", data: "0x5f3f2dd4" } }));
    const wallet = createDevWallet("http://node", ALICE, fetcher);
    await expect(wallet.request({ method: "eth_estimateGas", params: [{}] })).rejects.toMatchObject({ code: -32603, data: "0x5f3f2dd4" });
  });

  it("keeps the methods it was asked, refused ones too, oldest first", async () => {
    const { fetcher } = node(() => ({ result: "0x1" }));
    const wallet = createDevWallet("http://node", ALICE, fetcher);
    await wallet.request({ method: "eth_chainId" });
    wallet.rejectNextRequest();
    await expect(wallet.request({ method: "eth_sendTransaction", params: [{}] })).rejects.toMatchObject({ code: 4001 });
    expect(wallet.requests).toEqual(["eth_chainId", "eth_sendTransaction"]);
  });

  it("refuses another chain with 4902, as a wallet that does not know it would", async () => {
    const { fetcher } = node(() => ({ result: "0x7a69" }));
    const wallet = createDevWallet("http://node", ALICE, fetcher);
    await expect(wallet.request({ method: "wallet_switchEthereumChain", params: [{ chainId: "0x7a69" }] })).resolves.toBeNull();
    await expect(wallet.request({ method: "wallet_switchEthereumChain", params: [{ chainId: "0xaa36a7" }] })).rejects.toMatchObject({
      code: 4902,
    });
  });

  it("can refuse the next request that needs consent with 4001, once", async () => {
    const { fetcher } = node(() => ({ result: "0xsig" }));
    const wallet = createDevWallet("http://node", ALICE, fetcher);
    wallet.rejectNextRequest();
    await expect(wallet.request({ method: "eth_chainId" })).resolves.toBe("0xsig"); // reads need no consent
    await expect(wallet.request({ method: "personal_sign", params: ["0x00", ALICE] })).rejects.toMatchObject({ code: 4001 });
    await expect(wallet.request({ method: "personal_sign", params: ["0x00", ALICE] })).resolves.toBe("0xsig");
  });

  it("announces a switch of account with accountsChanged", async () => {
    const { fetcher } = node(() => ({ result: null }));
    const wallet = createDevWallet("http://node", ALICE, fetcher);
    const seen: string[][] = [];
    const listener = (accounts: string[]) => seen.push(accounts);
    wallet.on("accountsChanged", listener);
    wallet.setAccount(BOB);
    wallet.setAccount(BOB); // the same account: nothing to announce
    wallet.removeListener("accountsChanged", listener);
    wallet.setAccount(ALICE);
    expect(seen).toEqual([[BOB]]);
    expect(await wallet.request({ method: "eth_accounts" })).toEqual([ALICE]);
  });

  it("says the node is not answering when it is down (EIP-1193 code 4900)", async () => {
    const wallet = createDevWallet("http://node", ALICE, (async () => {
      throw new TypeError("fetch failed");
    }) as typeof fetch);
    await expect(wallet.request({ method: "eth_blockNumber" })).rejects.toMatchObject({ code: 4900 });
  });
});
