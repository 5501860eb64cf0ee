import { Transaction, TransactionReceipt, Wallet, ZeroAddress, formatUnits, getAddress, isError } from "ethers";
import { and, desc, eq, inArray, isNotNull, isNull, lte, ne, sql } from "drizzle-orm";
import { parseAddress } from "../../../common/addresses";
import { formatTokenAmount } from "../../../common/amounts";
import { describeError } from "../../../common/contractErrors";
import { TOKEN_DECIMALS } from "../../../common/token";
import type { Chain } from "../chain";
import type { Config } from "../config";
import type { Database } from "../db/client";
import { bankAccounts, bankWallets, deposits } from "../db/schema";
import { badRequest, conflict, notFound } from "../errors";
import type { Logger } from "../logger";
import type { BankAccount, BankAccountType, BankTerms, BankWallet, Deposit, DepositStatus } from "../../../common/apiTypes";
import { Ticker } from "./ticker";
import type { SessionUser } from "./firebaseAuth";

export const BANK_OFF_MESSAGE = "The mock bank is off: it needs a minter key (MINTER_PRIVATE_KEY), and runs on the local chain by default.";

/** Spec section 9: no fee, 1 USD = 1 USDX. */
export const DEPOSIT_FEE = "0.00";
export const USD_PER_USDX = "1";
/** A mock limit per deposit, in whole dollars. */
export const MAX_DEPOSIT_USD = 1_000_000n;
const CENT_IN_BASE_UNITS = 10n ** BigInt(TOKEN_DECIMALS - 2);
const MAX_DEPOSIT_CENTS = MAX_DEPOSIT_USD * 100n;

const TICK_MS = 250;
/** A sent mint not mined yet is sent again this often (the same raw transaction: harmless). */
const REBROADCAST_MS = 10_000;
const DEPOSIT_LIST_LIMIT = 500;
/** Removed accounts that deposits still name stay as rows with this status, out of every list. */
const REMOVED = "removed";
/** The wallet a wallet sign-in brings along, named so the user can tell it apart. */
const SIGN_IN_WALLET_NAME = "Sign-in wallet";

export interface NewBankAccount {
  name: string;
  type: BankAccountType;
  accountNumber: string;
  routingNumber: string;
}

export interface NewDeposit {
  bankAccountId: number;
  amount: string;
  walletId?: number;
}

type AccountRow = typeof bankAccounts.$inferSelect;
type WalletRow = typeof bankWallets.$inferSelect;
type DepositRow = typeof deposits.$inferSelect;
type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * Parses a deposit amount in US dollars ("125.50") into USDX base units (1 USD = 1 USDX).
 * Throws a 400 'Invalid Deposit: ...' saying what is wrong.
 */
export function parseDepositAmount(input: string): bigint {
  const text = input.trim();
  if (/^-\s*\d/.test(text)) throw badRequest(`Invalid Deposit: the amount must be greater than 0, and '${input}' is negative.`);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw badRequest(`Invalid Deposit: '${input}' is not an amount in US dollars: use digits and at most 2 decimals, such as '125.50'.`);
  const fraction = match[2] ?? "";
  if (fraction.length > 2) throw badRequest(`Invalid Deposit: '${input}' has ${fraction.length} decimals; a US dollar amount has at most 2 (cents).`);
  const cents = BigInt(match[1]) * 100n + BigInt(fraction.padEnd(2, "0"));
  if (cents === 0n) throw badRequest("Invalid Deposit: the amount must be greater than 0.");
  if (cents > MAX_DEPOSIT_CENTS) throw badRequest("Invalid Deposit: a mock deposit is at most 1,000,000.00 USD.");
  return cents * CENT_IN_BASE_UNITS;
}

/**
 * The mock bank: bank accounts that verify themselves, the user's wallets, and deposits that mint
 * real USDX with the server's minter key. Every timer is a timestamp in the row, and a worker moves
 * rows whose time has come, so a restart resumes where the last process stopped.
 */
export class MockBankService {
  private readonly minter: Wallet | null;
  private readonly ticker: Ticker<void>;
  /** When this process last sent each deposit's mint. */
  private readonly sentAt = new Map<number, number>();

  constructor(
    private readonly db: Database,
    private readonly chain: Chain,
    private readonly options: Config["bank"],
    private readonly log: Logger,
  ) {
    this.minter = options.minterKey ? new Wallet(options.minterKey, chain.provider) : null;
    this.ticker = new Ticker(() => this.tick(), TICK_MS, log, "mock bank");
  }

  /** False when no minter key is configured: every bank route then answers 503. */
  get enabled(): boolean {
    return this.minter !== null;
  }

  /** What the deposit screen shows: fee, rate, limit and timings (public; the key never leaves). */
  terms(): BankTerms {
    return {
      fee: DEPOSIT_FEE,
      rate: USD_PER_USDX,
      maxDeposit: `${MAX_DEPOSIT_USD}.00`,
      verifyMs: this.options.verifyMs,
      processingMs: this.options.processingMs,
      completeMs: this.options.completeMs,
      minter: this.minter?.address ?? null,
    };
  }

  start(): void {
    if (!this.minter) {
      this.log.info("mock bank off: no minter key");
      return;
    }
    // A failed step (the node or the database away) is retried; rows keep their timestamps, so nothing is lost.
    this.ticker.start();
  }

  stop(): Promise<void> {
    return this.ticker.stop();
  }

  status(): { running: boolean; lastError: string | null } {
    return { running: this.ticker.running, lastError: this.ticker.lastError };
  }

  // ---------------------------------------------------------------- bank accounts

  async listAccounts(uid: string): Promise<BankAccount[]> {
    await this.verifyDue(uid);
    const rows = await this.db
      .select()
      .from(bankAccounts)
      .where(and(eq(bankAccounts.uid, uid), ne(bankAccounts.status, REMOVED)))
      .orderBy(bankAccounts.createdAt, bankAccounts.id);
    return rows.map(accountView);
  }

  async addAccount(uid: string, input: NewBankAccount): Promise<BankAccount> {
    const name = input.name.trim();
    const accountNumber = input.accountNumber.trim();
    const routingNumber = input.routingNumber.trim();
    if (!/^\d{4,17}$/.test(accountNumber)) throw badRequest("Invalid Bank Account: the account number must be 4 to 17 digits.");
    if (!/^\d{9}$/.test(routingNumber)) throw badRequest("Invalid Bank Account: the routing number must be exactly 9 digits.");
    const now = new Date();
    // Only the last four digits are kept: the full numbers are never stored.
    const [row] = await this.db
      .insert(bankAccounts)
      .values({
        uid,
        name,
        type: input.type,
        lastFour: accountNumber.slice(-4),
        status: "pending",
        createdAt: now,
        verifyAt: new Date(now.getTime() + this.options.verifyMs),
      })
      .returning();
    return accountView(row);
  }

  /** Removes an account; one that past deposits name is hidden instead, so their history keeps its name. */
  async removeAccount(uid: string, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [account] = await tx
        .select()
        .from(bankAccounts)
        .where(and(eq(bankAccounts.id, id), eq(bankAccounts.uid, uid), ne(bankAccounts.status, REMOVED)))
        .for("update");
      if (!account) throw notFound(`Bank account ${id} was not found among your bank accounts.`);
      const named = await tx
        .select({ id: deposits.id, status: deposits.status })
        .from(deposits)
        .where(eq(deposits.bankAccountId, id));
      if (named.some((d) => d.status === "pending" || d.status === "processing")) {
        throw conflict(`Cannot Remove Bank Account: '${account.name}' has a deposit in progress; remove it once the deposit has completed or failed.`);
      }
      if (named.length > 0) await tx.update(bankAccounts).set({ status: REMOVED }).where(eq(bankAccounts.id, id));
      else await tx.delete(bankAccounts).where(eq(bankAccounts.id, id));
    });
  }

  /** pending → verified for every account (or one user's) whose verifyAt has passed. */
  private async verifyDue(uid?: string): Promise<void> {
    const now = new Date();
    await this.db
      .update(bankAccounts)
      .set({ status: "verified", verifiedAt: now })
      .where(and(eq(bankAccounts.status, "pending"), lte(bankAccounts.verifyAt, now), uid ? eq(bankAccounts.uid, uid) : undefined));
  }

  // ---------------------------------------------------------------- wallets

  async listWallets(user: SessionUser): Promise<BankWallet[]> {
    await this.adoptSignInWallet(user);
    const rows = await this.db.select().from(bankWallets).where(eq(bankWallets.uid, user.uid)).orderBy(bankWallets.createdAt, bankWallets.id);
    return this.withBalances(rows);
  }

  async addWallet(uid: string, input: { name: string; address: string }): Promise<BankWallet> {
    let address: string;
    try {
      address = parseAddress(input.address);
    } catch (error) {
      throw badRequest(`Invalid Address: ${(error as Error).message}.`);
    }
    if (address === ZeroAddress) throw badRequest("Invalid Address: the zero address cannot hold tokens.");
    const row = await this.db.transaction(async (tx) => {
      await lockUserWallets(tx, uid);
      const existing = await tx.select().from(bankWallets).where(eq(bankWallets.uid, uid));
      const same = existing.find((w) => w.address.toLowerCase() === address.toLowerCase());
      if (same) throw conflict(`Duplicate Wallet: ${address} is already in your wallets as '${same.name}'.`);
      // The first wallet is the primary one.
      const [inserted] = await tx
        .insert(bankWallets)
        .values({ uid, name: input.name.trim(), address, isPrimary: existing.length === 0, createdAt: new Date() })
        .returning();
      return inserted;
    });
    return (await this.withBalances([row]))[0];
  }

  async setPrimaryWallet(uid: string, id: number): Promise<BankWallet> {
    const row = await this.db.transaction(async (tx) => {
      await lockUserWallets(tx, uid);
      const [target] = await tx.select().from(bankWallets).where(and(eq(bankWallets.id, id), eq(bankWallets.uid, uid)));
      if (!target) throw notFound(`Wallet ${id} was not found among your wallets.`);
      // One statement: exactly one primary afterwards.
      await tx
        .update(bankWallets)
        .set({ isPrimary: sql`${bankWallets.id} = ${id}` })
        .where(eq(bankWallets.uid, uid));
      return { ...target, isPrimary: true };
    });
    return (await this.withBalances([row]))[0];
  }

  async removeWallet(uid: string, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await lockUserWallets(tx, uid);
      const [target] = await tx.select().from(bankWallets).where(and(eq(bankWallets.id, id), eq(bankWallets.uid, uid)));
      if (!target) throw notFound(`Wallet ${id} was not found among your wallets.`);
      if (target.isPrimary) {
        throw conflict(`Cannot Remove Primary Wallet: '${target.name}' is your primary wallet; make another wallet primary first.`);
      }
      await tx.delete(bankWallets).where(eq(bankWallets.id, id));
    });
  }

  /** A wallet sign-in with no wallets yet gets its own address as the primary wallet. */
  private async adoptSignInWallet(user: SessionUser): Promise<void> {
    if (!user.wallet) return;
    const address = getAddress(user.wallet);
    await this.db.transaction(async (tx) => {
      await lockUserWallets(tx, user.uid);
      const [any] = await tx.select({ id: bankWallets.id }).from(bankWallets).where(eq(bankWallets.uid, user.uid)).limit(1);
      if (any) return;
      await tx.insert(bankWallets).values({ uid: user.uid, name: SIGN_IN_WALLET_NAME, address, isPrimary: true, createdAt: new Date() });
    });
  }

  private async withBalances(rows: WalletRow[]): Promise<BankWallet[]> {
    const balances = await Promise.all(
      rows.map((w) =>
        this.chain.usdx.balanceOf(w.address).catch((error: unknown) => {
          this.log.warn({ err: (error as Error).message, address: w.address }, "balance read failed");
          return null;
        }),
      ),
    );
    return rows.map((w, i) => {
      const raw = balances[i];
      return {
        id: w.id,
        name: w.name,
        address: w.address,
        isPrimary: w.isPrimary,
        balance: raw === null ? null : formatUnits(raw, TOKEN_DECIMALS).replace(/\.0$/, ""),
        balanceRaw: raw === null ? null : raw.toString(),
        createdAt: w.createdAt.toISOString(),
      };
    });
  }

  // ---------------------------------------------------------------- deposits

  async listDeposits(uid: string): Promise<Deposit[]> {
    await this.startDue(uid);
    const rows = await this.db
      .select({ deposit: deposits, account: bankAccounts })
      .from(deposits)
      .innerJoin(bankAccounts, eq(bankAccounts.id, deposits.bankAccountId))
      .where(eq(deposits.uid, uid))
      .orderBy(desc(deposits.createdAt), desc(deposits.id))
      .limit(DEPOSIT_LIST_LIMIT);
    return rows.map((r) => depositView(r.deposit, r.account));
  }

  async getDeposit(uid: string, id: number): Promise<Deposit> {
    await this.startDue(uid);
    const [row] = await this.db
      .select({ deposit: deposits, account: bankAccounts })
      .from(deposits)
      .innerJoin(bankAccounts, eq(bankAccounts.id, deposits.bankAccountId))
      .where(and(eq(deposits.id, id), eq(deposits.uid, uid)));
    if (!row) throw notFound(`Deposit ${id} was not found among your deposits.`);
    return depositView(row.deposit, row.account);
  }

  /** Requests a deposit; the worker mints it once its completion time comes. */
  async createDeposit(user: SessionUser, input: NewDeposit): Promise<Deposit> {
    const amount = parseDepositAmount(input.amount);
    const uid = user.uid;
    await this.verifyDue(uid);
    if (input.walletId === undefined) await this.adoptSignInWallet(user);
    const { row, account } = await this.db.transaction(async (tx) => {
      // Locked so the account cannot be removed while this deposit is being added.
      const [account] = await tx
        .select()
        .from(bankAccounts)
        .where(and(eq(bankAccounts.id, input.bankAccountId), eq(bankAccounts.uid, uid), ne(bankAccounts.status, REMOVED)))
        .for("update");
      if (!account) throw notFound(`Invalid Deposit: bank account ${input.bankAccountId} was not found among your bank accounts.`);
      if (account.status !== "verified") {
        throw badRequest(`Invalid Deposit: the bank account '${account.name}' is not verified yet; you can deposit from it once it is verified, a few seconds after it was added.`);
      }
      let wallet: WalletRow | undefined;
      if (input.walletId !== undefined) {
        [wallet] = await tx.select().from(bankWallets).where(and(eq(bankWallets.id, input.walletId), eq(bankWallets.uid, uid)));
        if (!wallet) throw notFound(`Invalid Deposit: wallet ${input.walletId} was not found among your wallets.`);
      } else {
        [wallet] = await tx.select().from(bankWallets).where(and(eq(bankWallets.uid, uid), eq(bankWallets.isPrimary, true)));
        if (!wallet) throw badRequest("Invalid Deposit: you have no wallet to receive the USDX; add one under My Wallets first.");
      }
      const now = Date.now();
      const [row] = await tx
        .insert(deposits)
        .values({
          uid,
          bankAccountId: account.id,
          walletAddress: wallet.address,
          amount: amount.toString(),
          status: "pending",
          createdAt: new Date(now),
          processingAt: new Date(now + this.options.processingMs),
          completeAt: new Date(now + this.options.completeMs),
        })
        .returning();
      return { row, account };
    });
    return depositView(row, account);
  }

  /** pending → processing for every deposit (or one user's) whose processingAt has passed. */
  private async startDue(uid?: string): Promise<void> {
    await this.db
      .update(deposits)
      .set({ status: "processing" })
      .where(and(eq(deposits.status, "pending"), lte(deposits.processingAt, new Date()), uid ? eq(deposits.uid, uid) : undefined));
  }

  // ---------------------------------------------------------------- the worker

  /** One step: verify, start, then settle sent mints and send due ones, one mint at a time. */
  private async tick(): Promise<void> {
    await this.verifyDue();
    await this.startDue();
    const now = new Date();
    const processing = await this.db
      .select()
      .from(deposits)
      .where(and(eq(deposits.status, "processing"), isNotNull(deposits.signedTx)))
      .orderBy(deposits.id);
    let waiting = false;
    for (const row of processing) {
      if (!this.ticker.running) return;
      if (!(await this.settle(row))) waiting = true;
    }
    // A new mint takes the next nonce only when every earlier one is mined or failed.
    if (waiting) return;
    const due = await this.db
      .select()
      .from(deposits)
      .where(and(eq(deposits.status, "processing"), isNull(deposits.signedTx), lte(deposits.completeAt, now)))
      .orderBy(deposits.completeAt, deposits.id);
    for (const row of due) {
      if (!this.ticker.running) return;
      if (!(await this.mint(row))) return;
    }
  }

  /** Signs the mint, stores it, then sends it. True when the deposit has reached its end. */
  private async mint(row: DepositRow): Promise<boolean> {
    const minter = this.minter!;
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
      .set({ signedTx, txHash })
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
    const minter = this.minter!;
    const { provider } = this.chain;
    const txHash = row.txHash!;
    // The nonce is read before the receipt, so "nonce used and no receipt" means another transaction used it.
    const used = await provider.getTransactionCount(minter.address, "latest");
    let receipt = await provider.getTransactionReceipt(txHash);
    if (!receipt) {
      if (used > Transaction.from(row.signedTx!).nonce) {
        await this.finish(row.id, "failed", `The mint transaction ${txHash} was replaced by another transaction of the minter account, so it can never be mined; nothing was minted.`);
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
      this.log.warn({ deposit: id, err: (error as Error).message }, "mock deposit: sending the mint failed; it will be sent again");
    }
  }

  private async settleByReceipt(row: DepositRow, receipt: TransactionReceipt): Promise<void> {
    this.sentAt.delete(row.id);
    if (receipt.status === 1) {
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

/** Serialises one user's wallet changes (the one-primary rule), on Postgres and PGlite alike. */
async function lockUserWallets(tx: Tx, uid: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"bank-wallets:" + uid}))`);
}

function accountView(row: AccountRow): BankAccount {
  return {
    id: row.id,
    name: row.name,
    type: row.type as BankAccountType,
    lastFour: row.lastFour,
    status: row.status as "pending" | "verified",
    createdAt: row.createdAt.toISOString(),
    verifyAt: row.verifyAt.toISOString(),
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
  };
}

function depositView(row: DepositRow, account: AccountRow): Deposit {
  const raw = BigInt(row.amount);
  return {
    id: row.id,
    amount: formatTokenAmount(raw, 2),
    amountRaw: row.amount,
    fee: DEPOSIT_FEE,
    rate: USD_PER_USDX,
    status: row.status as DepositStatus,
    timestamp: row.createdAt.toISOString(),
    processingAt: row.processingAt.toISOString(),
    completeAt: row.completeAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    walletAddress: row.walletAddress,
    txHash: row.txHash,
    error: row.error,
    bankAccount: { id: account.id, name: account.name, lastFour: account.lastFour },
  };
}
