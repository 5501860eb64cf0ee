import { Contract, getAddress } from "ethers";
import type { Chain } from "../../chain/client";
import type { HeadCache } from "../../chain/headCache";
import { fromChain } from "../indexing/tokenState";
import { SAFE_INTERFACE } from "@common/safe";
import { ROLE_NAMES, ROLES, type RoleName } from "@common/roles";
import { shortAddress } from "@common/wording";

/** A Safe as the chain holds it at one block: the latest when it was read. */
export interface SafeState {
  /** Checksummed. */
  address: string;
  /** The deployment's name for it ('Operations Safe'), else its short address. */
  name: string;
  owners: string[];
  threshold: number;
  /** The nonce its next executed transaction uses. */
  nonce: bigint;
  /** The USDX roles it holds. */
  roles: RoleName[];
  /** The block everything above was read at. */
  blockNumber: number;
}

/** Why an address is not a Safe the server takes proposals for. */
export type NotASafe = "no code" | "not a Safe" | "old version";

/**
 * Reads Safes (v1.3 and later) from the chain. Every figure of one answer comes from the same block,
 * so owners, threshold, nonce and roles never mix two moments.
 *
 * What anyone signed in may ask (`list`, `cached`) comes from the shared chain-read cache
 * (chain/headCache.ts): read at the latest block once, then kept until the head the indexer reads
 * moves, so polling the Approvals screen costs the RPC provider one read per Safe and head, not one
 * a request. Writes (`read`) read the latest block themselves, and drop the cached answer (`forget`),
 * so what the server learns there shows in the next listing.
 */
export class SafeReader {
  constructor(
    private readonly chain: Chain,
    /** Every account that holds some USDX role, as the index knows them: where to look for Safes. */
    private readonly roleHolders: () => Promise<string[]>,
    /** Chain reads shared by every request until the head moves. */
    private readonly reads: HeadCache,
  ) {}

  /** The Safe at `address` at the latest block, or why it is not one. A node that does not answer is a 503. */
  async read(address: string): Promise<SafeState | NotASafe> {
    const checksummed = getAddress(address.toLowerCase());
    return fromChain("the Safe", async () => this.readAt(checksummed, await this.chain.provider.getBlockNumber()));
  }

  /** `read`'s answer as of the head the indexer last read (cached, shared by every caller). */
  cached(address: string): Promise<SafeState | NotASafe> {
    return this.reads.read(safeKey(address), () => this.read(address));
  }

  /** Drops what is cached of the Safe at `address` (its own answer and the list): the server saw it change. */
  forget(address: string): void {
    this.reads.forget(safeKey(address));
    this.reads.forget(SAFES_KEY);
  }

  /**
   * Whether `address` is a Safe the dashboard shows: one the manifest names, or one the (cached)
   * list holds. Never throws: a list the node cannot give leaves the manifest's names.
   */
  async known(address: string): Promise<boolean> {
    const wanted = address.toLowerCase();
    if ((this.chain.manifest.safes ?? []).some((s) => s.address.toLowerCase() === wanted)) return true;
    const listed = await this.list().catch(() => [] as SafeState[]);
    return listed.some((s) => s.address.toLowerCase() === wanted);
  }

  /**
   * The Safes that hold at least one USDX role: the manifest's named Safes and every role holder the
   * index knows that is a Safe, read at the latest block when the head last moved (cached). A Safe
   * granted a role is found once the index has the grant (or at once, when the manifest names it).
   */
  list(): Promise<SafeState[]> {
    return this.reads.read(SAFES_KEY, () => this.listNow());
  }

  private async listNow(): Promise<SafeState[]> {
    const holders = await this.roleHolders();
    const named = (this.chain.manifest.safes ?? []).map((s) => s.address);
    const candidates = [...new Set([...named, ...holders].map((a) => getAddress(a.toLowerCase())))];
    return fromChain("the Safes", async () => {
      const blockNumber = await this.chain.provider.getBlockNumber();
      // Most role holders are people's wallets: one getCode each rules them out before any Safe read.
      const codes = await Promise.all(candidates.map((a) => this.chain.provider.getCode(a, blockNumber)));
      const contracts = candidates.filter((_, i) => codes[i] !== "0x");
      const read = await Promise.all(contracts.map((a) => this.readAt(a, blockNumber)));
      return read.filter((s): s is SafeState => typeof s !== "string" && s.roles.length > 0);
    });
  }

  /** The manifest's name for a Safe, else its short address. */
  nameOf(address: string): string {
    return safeName(this.chain.manifest, address);
  }

  private async readAt(address: string, blockTag: number): Promise<SafeState | NotASafe> {
    const { provider, usdx } = this.chain;
    const safe = new Contract(address, SAFE_INTERFACE, provider);
    const tag = { blockTag };
    // One round of calls (ethers batches them): the code, the Safe's own answers, and every role.
    const [code, answers, held] = await Promise.all([
      provider.getCode(address, blockTag),
      Promise.all([
        safe.VERSION(tag) as Promise<string>,
        safe.getOwners(tag) as Promise<string[]>,
        safe.getThreshold(tag) as Promise<bigint>,
        safe.nonce(tag) as Promise<bigint>,
      ]).catch((error: unknown) => {
        if (answeredOtherwise(error)) return null;
        throw error;
      }),
      Promise.all(ROLE_NAMES.map((role) => usdx.hasRole(ROLES[role], address, tag))),
    ]);
    if (code === "0x") return "no code";
    if (!answers) return "not a Safe";
    const [version, owners, threshold, nonce] = answers;
    // Before 1.3 the SafeTx domain had no chain id: the hash owners sign here would not be the Safe's.
    if (!signsWithChainId(version)) return "old version";
    return {
      address,
      name: this.nameOf(address),
      owners: owners.map((o) => getAddress(o)),
      threshold: Number(threshold),
      nonce,
      roles: ROLE_NAMES.filter((_, i) => held[i]),
      blockNumber: blockTag,
    };
  }
}

/** The cache's keys (chain/headCache.ts): one for the list, one per Safe. */
const SAFES_KEY = "safes";
const safeKey = (address: string) => `safe:${address.toLowerCase()}`;

/** A contract that reverts, or answers something that does not decode: not a Safe (as opposed to a node that does not answer). */
function answeredOtherwise(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === "CALL_EXCEPTION" || code === "BAD_DATA";
}

/** Whether a Safe of `version` signs SafeTx over the chain id and its address (1.3.0 and later), as common/safe.ts does. */
function signsWithChainId(version: string): boolean {
  const match = /^(\d+)\.(\d+)\./.exec(version);
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 1 || (major === 1 && minor >= 3);
}

/** The deployment's name for a Safe, else its short address (also for History's 'via' rows, which read no Safe). */
export function safeName(manifest: Pick<Chain["manifest"], "safes">, address: string): string {
  const named = manifest.safes?.find((s) => s.address.toLowerCase() === address.toLowerCase());
  return named?.name ?? shortAddress(getAddress(address.toLowerCase()));
}
