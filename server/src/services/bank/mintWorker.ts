import { Transaction, TransactionReceipt, Wallet, isError } from "ethers";
import { and, eq, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { describeError } from "@common/contractErrors";
import { LOCAL_CHAIN, describeChain, isMainnet } from "@common/networks";
import type { Chain } from "../../chain/client";
import type { BankMode } from "../../config";
import type { Database } from "../../db/client";
import { deposits } from "../../db/schema";
import { errorText, type Logger } from "../../lib/logger";
import { type DepositRow } from "./shared";

/** A sent mint not mined yet is sent again this often (the same raw transaction: harmless). */
const REBROADCAST_MS = 10_000;
/** New mints one step may send (each waits for the one before it to be mined). */
const MAX_MINTS_PER_STEP = 20;

/**
 * Why the mock bank must not run against this chain, or null. `reported` is the chain id the node
 * answers (null: not asked yet). Never on a mainnet, whatever the settings; 'local' only on the local
 * chain; and only on the chain it was configured for.
 */
export function chainRefusal(mode: Exclude<BankMode, "off">, configured: number, reported: number | null): string | null {
  const refuse = "The mock bank refuses to start";
  if (isMainnet(configured)) {
    return `${refuse}: this server is configured for ${describeChain(configured)}, a mainnet, and the mock bank never mints on a mainnet.`;
  }
  if (reported === null) return null;
  if (isMainnet(reported)) {
    return `${refuse}: the node at RPC_URL reports ${describeChain(reported)}, a mainnet, and the mock bank never mints on a mainnet.`;
  }
  if (mode === "local" && reported !== LOCAL_CHAIN.chainId) {
    return `${refuse}: MOCK_BANK=local runs on the local chain (${LOCAL_CHAIN.chainId}) only, and the node at RPC_URL reports ${describeChain(reported)}.`;
  }
  if (reported !== configured) {
    return `${refuse}: it is configured for ${describeChain(configured)}, and the node at RPC_URL reports ${describeChain(reported)}.`;
  }
  return null;
}

/**
 * Mints due deposits with the minter key, one at a time (each takes the next nonce only when every
 * earlier one is mined or failed). Fair between users: the next mint goes to the user whose last
 * mint is oldest (never minted first), their oldest due deposit first, so one user's backlog cannot
 * hold anyone else's. No double mint: a mint is signed and stored with its hash before it is sent,
 * and afterwards only that stored transaction is ever sent again.
 */
export class MintWorker {
  /** When this process last sent each deposit's mint. */
  private readonly sentAt = new Map<number, number>();
  private refusal: string | null;

  constructor(
    private readonly db: Database,
    private readonly chain: Chain,
    private readonly minter: Wallet,
    private readonly mode: Exclude<BankMode, "off">,
    private readonly log: Logger,
    /** Told of each mint mined: the wallet's cached balance is stale. */
    private readonly minted: (address: string) => void = () => undefined,
  ) {
    this.refusal = chainRefusal(mode, chain.manifest.chainId, null);
  }

  /** Why the worker will not mint (a mainnet, the wrong chain), or null. Set once; only a restart clears it. */
  get refused(): string | null {
    return this.refusal;
  }

  /**
   * Reads the chain id the node reports and refuses for good if the bank must not run on it.
   * Answers true when minting may go on.
   */
  async checkChain(): Promise<boolean> {
    if (this.refusal) return false;
    // Asked of the node itself (the provider's network is static: it would answer the configured id).
    const reported = Number(BigInt((await this.chain.provider.send("eth_chainId", [])) as string));
    const refusal = chainRefusal(this.mode, this.chain.manifest.chainId, reported);
    if (refusal) {
      this.refusal = refusal;
      this.log.error({ reported, configured: this.chain.manifest.chainId }, refusal);
      return false;
    }
    return true;
  }

  /**
   * One step: settle sent mints, then (the node's chain checked again) send due ones, each time to
   * the user whose last mint is oldest. `go` says whether to keep going (false once stopping).
   */
  async step(go: () => boolean): Promise<void> {
    if (this.refusal) return;
    const processing = await this.db
      .select()
      .from(deposits)
      .where(and(eq(deposits.status, "processing"), isNotNull(deposits.signedTx)))
      .orderBy(deposits.id);
    let waiting = false;
    for (const row of processing) {
      if (!go()) return;
      if (!(await this.settle(row))) waiting = true;
    }
    // A new mint takes the next nonce only when every earlier one is mined or failed.
    if (waiting) return;
    const now = new Date();
    let checked = false;
    for (let sent = 0; sent < MAX_MINTS_PER_STEP && go(); sent++) {
      const next = await this.nextDue(now);
      if (!next) return;
      // Before a new mint is signed: is the node still on a chain the bank may mint on?
      if (!checked && !(await this.checkChain())) return;
      checked = true;
      if (!(await this.mint(next))) return;
    }
  }

  /** The due deposit to mint next: of the user whose last mint is oldest (or who has none), the oldest. */
  private async nextDue(now: Date): Promise<DepositRow | undefined> {
    const [next] = await this.db
      .select()
      .from(deposits)
      .where(and(eq(deposits.status, "processing"), isNull(deposits.signedTx), lte(deposits.completeAt, now)))
      .orderBy(
        sql`(select max(minted.signed_at) from ${deposits} as minted where minted.uid = ${deposits.uid}) asc nulls first`,
        deposits.completeAt,
        deposits.id,
      )
      .limit(1);
    return next;
  }

  /** Signs the mint, stores it, then sends it. True when the deposit has reached its end. */
  private async mint(row: DepositRow): Promise<boolean> {
    const minter = this.minter;
    const { provider } = this.chain;
    const request = await this.chain.usdx.connect(minter).mint.populateTransaction(row.walletAddress, BigInt(row.amount));
    const nonce = await provider.getTransactionCount(minter.address, "pending");
    let gasLimit: bigint;
    try {
      gasLimit = await minter.estimateGas({ ...request, from: minter.address });
    } catch (error) {
      // A revert here means the mint would fail: nothing is sent. Anything else is tried again.
      if (!isError(error, "CALL_EXCEPTION") && !isError(error, "INSUFFICIENT_FUNDS")) throw error;
      const reason = isError(error, "INSUFFICIENT_FUNDS") ? "The minter account has no ETH left to pay for gas." : describeError(error);
      await this.finish(row.id, "failed", reason);
      this.log.warn({ deposit: row.id, reason }, "mock deposit failed: the mint would revert");
      return true;
    }
    const populated = await minter.populateTransaction({ ...request, nonce, gasLimit: (gasLimit * 12n) / 10n });
    const signedTx = await minter.signTransaction(populated);
    const txHash = Transaction.from(signedTx).hash!;
    // Stored before it is sent: after a crash the same transaction (same nonce) is sent again.
    const [claimed] = await this.db
      .update(deposits)
      .set({ signedTx, txHash, signedAt: new Date() })
      .where(and(eq(deposits.id, row.id), eq(deposits.status, "processing"), isNull(deposits.signedTx)))
      .returning({ id: deposits.id });
    if (!claimed) return true;
    this.log.info({ deposit: row.id, txHash, to: row.walletAddress }, "mock deposit: mint sent");
    return this.settle({ ...row, signedTx, txHash });
  }

  /**
   * Brings a deposit whose mint is signed to its end: completed or failed by its receipt, failed if
   * another transaction took its nonce, else sends the stored transaction again. Never a new mint.
   */
  private async settle(row: DepositRow): Promise<boolean> {
    const { provider } = this.chain;
    const txHash = row.txHash!;
    // The nonce is read before the receipt, so "nonce used and no receipt" means another transaction used it.
    const used = await provider.getTransactionCount(this.minter.address, "latest");
    let receipt = await provider.getTransactionReceipt(txHash);
    if (!receipt) {
      if (used > Transaction.from(row.signedTx!).nonce) {
        await this.finish(
          row.id,
          "failed",
          `The mint transaction ${txHash} was replaced by another transaction of the minter account, so it can never be mined; nothing was minted.`,
        );
        return true;
      }
      const last = this.sentAt.get(row.id);
      if (last !== undefined && Date.now() - last < REBROADCAST_MS) return false;
      this.sentAt.set(row.id, Date.now());
      await this.broadcast(row.id, row.signedTx!);
      receipt = await provider.getTransactionReceipt(txHash);
      if (!receipt) return false;
    }
    await this.settleByReceipt(row, receipt);
    return true;
  }

  private async broadcast(id: number, signedTx: string): Promise<void> {
    try {
      await this.chain.provider.broadcastTransaction(signedTx);
    } catch (error) {
      // Already in the pool or already mined: the receipt tells which.
      if (isError(error, "NONCE_EXPIRED") || /already known|known transaction|already imported/i.test((error as Error).message)) return;
      this.log.warn({ deposit: id, err: errorText(error) }, "mock deposit: sending the mint failed; it will be sent again");
    }
  }

  private async settleByReceipt(row: DepositRow, receipt: TransactionReceipt): Promise<void> {
    this.sentAt.delete(row.id);
    if (receipt.status === 1) {
      this.minted(row.walletAddress);
      await this.finish(row.id, "completed", null);
      this.log.info({ deposit: row.id, txHash: receipt.hash, block: receipt.blockNumber }, "mock deposit completed");
    } else {
      const reason = `The mint transaction ${receipt.hash} reverted on chain in block ${receipt.blockNumber}; nothing was minted.`;
      await this.finish(row.id, "failed", reason);
      this.log.warn({ deposit: row.id, reason }, "mock deposit failed");
    }
  }

  private async finish(id: number, status: "completed" | "failed", error: string | null): Promise<void> {
    await this.db
      .update(deposits)
      .set({ status, error, completedAt: status === "completed" ? new Date() : null })
      .where(and(eq(deposits.id, id), inArray(deposits.status, ["pending", "processing"])));
  }
}
