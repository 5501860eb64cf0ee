import { afterEach, describe, expect, it, vi } from "vitest";
import { decodeFunctionData, encodeFunctionResult, type Hex } from "viem";
import { ROLES } from "@common/roles";
import { USDX__factory } from "@bindings/factories/contracts/USDX__factory";
import { testConfig } from "@/test/config";
import { USDX_READS, readAccountFigures, readBlocked, readRoleFlags, readTokenFigures, type ReadSource } from "./reads";

const config = testConfig();
const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const RPC = "http://127.0.0.1:8545";

/** What the token answers each view with, as a node would (encoded by the same ABI entries). */
const TOKEN: Record<string, (args: readonly unknown[]) => unknown> = {
  name: () => "USDX Dollar",
  symbol: () => "USDX",
  decimals: () => 18,
  totalSupply: () => 1234n * 10n ** 18n,
  totalShares: () => 1000n * 10n ** 18n,
  rewardMultiplier: () => 1_234_000_000_000_000_000n,
  paused: () => false,
  balanceOf: () => 5n * 10n ** 18n,
  sharesOf: () => 4n * 10n ** 18n,
  isBlocked: ([account]) => String(account).toLowerCase() === ALICE.toLowerCase(),
  hasRole: ([role]) => role === ROLES.MINTER_ROLE,
};

function answer(data: Hex): Hex {
  const call = decodeFunctionData({ abi: USDX_READS, data });
  return encodeFunctionResult({
    abi: USDX_READS,
    functionName: call.functionName,
    result: TOKEN[call.functionName](call.args ?? []),
  } as never);
}

interface Sent {
  id: number;
  method: string;
  params: [{ to: string; data: Hex }, string];
}

/** A JSON-RPC node on `fetch`: answers each batch item, or what `reply` returns for the whole batch. */
function node(reply?: (batch: Sent[]) => unknown) {
  const batches: Sent[][] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_url: string, init: RequestInit) => {
      const batch = JSON.parse(String(init.body)) as Sent[];
      batches.push(batch);
      const body = reply ? reply(batch) : batch.map((c) => ({ jsonrpc: "2.0", id: c.id, result: answer(c.params[0].data) }));
      return new Response(JSON.stringify(body), { status: 200 });
    }),
  );
  return batches;
}

const viaUrl: ReadSource = { config, rpcUrl: RPC, wallet: null };

afterEach(() => vi.unstubAllGlobals());

describe("the light chain reads", () => {
  it("declare each function exactly as the contract's ABI does", () => {
    const bound: readonly { type: string; name?: string; inputs?: readonly { type: string }[]; outputs?: readonly { type: string }[] }[] =
      USDX__factory.abi;
    for (const entry of USDX_READS) {
      const match = bound.find(
        (b) =>
          b.type === "function" && b.name === entry.name && b.inputs?.map((i) => i.type).join() === entry.inputs.map((i) => i.type).join(),
      );
      expect(match, entry.name).toBeDefined();
      expect(
        match!.outputs!.map((o) => o.type),
        entry.name,
      ).toEqual(entry.outputs.map((o) => o.type));
    }
  });

  it("read the token's figures in one batch of eth_call to the contract", async () => {
    const batches = node();
    const figures = await readTokenFigures(viaUrl);
    expect(figures).toMatchObject({
      name: "USDX Dollar",
      symbol: "USDX",
      decimals: 18,
      totalSupply: 1234n * 10n ** 18n,
      totalShares: 1000n * 10n ** 18n,
      rewardMultiplier: 1_234_000_000_000_000_000n,
      paused: false,
    });
    expect(batches).toHaveLength(1);
    expect(batches[0].every((c) => c.method === "eth_call" && c.params[0].to === config.contracts.proxy && c.params[1] === "latest")).toBe(
      true,
    );
  });

  it("read an account, the roles it holds and who is blocked", async () => {
    node();
    expect(await readAccountFigures(viaUrl, ALICE)).toMatchObject({ balance: 5n * 10n ** 18n, shares: 4n * 10n ** 18n, blocked: true });
    const roles = await readRoleFlags(viaUrl, ALICE);
    expect(roles.MINTER_ROLE).toBe(true);
    expect(Object.values(roles).filter(Boolean)).toHaveLength(1);
    const other = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
    expect(await readBlocked(viaUrl, [ALICE, other])).toEqual({ [ALICE]: true, [other]: false });
  });

  it("split a long list into batches of 100", async () => {
    const batches = node();
    const addresses = Array.from({ length: 250 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`);
    expect(Object.keys(await readBlocked(viaUrl, addresses))).toHaveLength(250);
    expect(batches.map((b) => b.length)).toEqual([100, 100, 50]);
  });

  it("say what went wrong: a refused batch, a refused call, no contract, no node", async () => {
    node(() => ({ jsonrpc: "2.0", id: null, error: { code: 429, message: "Too many requests" } }));
    await expect(readTokenFigures(viaUrl)).rejects.toThrow("The RPC node refused the read: Too many requests");
    node((batch) => batch.map((c) => ({ jsonrpc: "2.0", id: c.id, error: { code: -32000, message: "header not found" } })));
    await expect(readAccountFigures(viaUrl, ALICE)).rejects.toThrow("The RPC node refused the read: header not found");
    node((batch) => batch.map((c) => ({ jsonrpc: "2.0", id: c.id, result: "0x" })));
    await expect(readTokenFigures(viaUrl)).rejects.toThrow(`There is no USDX contract at ${config.contracts.proxy} on the chain read.`);
    vi.stubGlobal("fetch", vi.fn().mockRejectedValue(new TypeError("Failed to fetch")));
    await expect(readTokenFigures(viaUrl)).rejects.toThrow(`The RPC node at ${RPC} could not be reached.`);
    // Roles: a failed check counts as not held (PRODUCT.md section 6), never as an error.
    expect(Object.values(await readRoleFlags(viaUrl, ALICE)).some(Boolean)).toBe(false);
  });

  it("read through the wallet only on the token's chain", async () => {
    const request = vi.fn(async ({ method, params }: { method: string; params?: unknown }) =>
      method === "eth_chainId" ? `0x${chainId.toString(16)}` : answer((params as [{ data: Hex }])[0].data),
    );
    let chainId = config.chainId;
    const viaWallet: ReadSource = { config, rpcUrl: null, wallet: { request } };
    expect((await readAccountFigures(viaWallet, ALICE)).balance).toBe(5n * 10n ** 18n);
    chainId = 1;
    await expect(readAccountFigures(viaWallet, ALICE)).rejects.toThrow(
      `The wallet is on chain 1, and USDX is on chain ${config.chainId}: switch networks in the wallet.`,
    );
    await expect(readTokenFigures({ config, rpcUrl: null, wallet: null })).rejects.toThrow("No way to read the chain");
  });
});
