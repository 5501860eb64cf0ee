import { Interface, JsonRpcProvider, getAddress, type JsonRpcError, type JsonRpcPayload, type JsonRpcResult } from "ethers";
import { USDX__factory } from "@bindings/factories/contracts/USDX__factory";
import type { SafeInfo, SafeProposal } from "@common/api/safes";
import { safeTxHash, type SafeTx } from "@common/safe";

/**
 * Stand-ins for the tests of Safe proposals: a Safe as GET /api/safes answers it, a proposal as its
 * proposals' list answers it, and a read provider whose node answers each eth_call as scripted (a
 * real ethers provider, so a revert comes back the way a node's does).
 */

export const OPERATIONS_SAFE = getAddress("0x2e234dae75c793f67a35089c9d99245e1c58470b");

export function safeInfo(overrides: Partial<SafeInfo> = {}): SafeInfo {
  return {
    address: OPERATIONS_SAFE,
    name: "Operations Safe",
    owners: [],
    threshold: 2,
    nonce: "4",
    roles: ["MINTER_ROLE", "ORACLE_ROLE", "PAUSE_ROLE"],
    nextNonce: "5",
    ...overrides,
  };
}

/** A proposal of `tx` to `safe` with the approvals given (each current unless it says otherwise). */
export function proposal(
  chainId: number,
  safe: SafeInfo,
  tx: SafeTx,
  approvals: { owner: string; signature?: string; current?: boolean }[],
  overrides: Partial<SafeProposal> = {},
): SafeProposal {
  const listed = approvals.map((a, i) => ({
    owner: a.owner,
    signature: a.signature ?? `0x${(i + 1).toString(16).padStart(2, "0").repeat(64)}1b`,
    approvedAt: "2026-11-26T10:00:00.000Z",
    current: a.current ?? true,
  }));
  return {
    safe: safe.address,
    safeTxHash: safeTxHash(chainId, safe.address, tx),
    tx,
    description: "(the server's words)",
    proposer: approvals[0]?.owner ?? safe.owners[0],
    proposedAt: "2026-11-26T10:00:00.000Z",
    state: "pending",
    approvals: listed,
    confirmations: listed.filter((a) => a.current).length,
    threshold: safe.threshold,
    executedBy: null,
    changes: [],
    ...overrides,
  };
}

export const usdxInterface = new Interface(USDX__factory.abi);

type Answer = { result: string } | { error: { code: number; message: string; data?: unknown } };

/** What the scripted node was asked (each eth_call's transaction) and how it answers the next one. */
export const scriptedNode = {
  calls: [] as { from?: string; to?: string; data?: string }[],
  answer: (): Answer => ({ result: "0x" }),
  reset() {
    this.calls = [];
    this.answer = () => ({ result: "0x" });
  },
};

/** An eth_call answer reverting with USDX's custom error `name`. */
export const revertWith = (name: string, args: unknown[] = []): Answer => ({
  error: { code: 3, message: "execution reverted", data: usdxInterface.encodeErrorResult(name, args) },
});

class ScriptedNode extends JsonRpcProvider {
  async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    const payloads = Array.isArray(payload) ? payload : [payload];
    return payloads.map((p) => {
      if (p.method === "eth_chainId") return { id: p.id, result: "0x7a69" };
      if (p.method === "eth_blockNumber") return { id: p.id, result: "0x10" };
      if (p.method === "eth_call") scriptedNode.calls.push((p.params as [{ from?: string; to?: string; data?: string }])[0]);
      // ethers types _send's answers as results only, though it reads an error answer from the same list.
      return { id: p.id, ...scriptedNode.answer() } as JsonRpcResult | JsonRpcError as JsonRpcResult;
    });
  }
}

/** The read provider for `vi.mock("@/lib/chain/contracts", ...)`'s readProvider. */
export const scriptedReader = () => new ScriptedNode("http://rpc.invalid", 31337, { staticNetwork: true, cacheTimeout: -1 });
