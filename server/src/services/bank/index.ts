import { Wallet } from "ethers";
import { MAX_DEPOSIT_USD, type NewBankAccount, type NewDeposit, type WalletProof } from "@common/api/bankInput";
import type { BankAccount, BankTerms, BankWallet, BankWalletChallenge, Deposit } from "@common/apiTypes";
import type { Chain } from "../../chain/client";
import type { HeadCache } from "../../chain/headCache";
import type { BankConfig } from "../../config";
import type { Database } from "../../db/client";
import type { Logger } from "../../lib/logger";
import type { SessionUser } from "../auth/firebaseAuth";
import { Ticker } from "../operations/ticker";
import { BankAccounts } from "./accounts";
import { Deposits } from "./deposits";
import { FaucetLimits } from "./faucet";
import { MintWorker } from "./mintWorker";
import { DEPOSIT_FEE, USD_PER_USDX } from "./shared";
import { BankWallets, balanceKey } from "./wallets";

export { chainRefusal } from "./mintWorker";
export { DEPOSIT_FEE, USD_PER_USDX } from "./shared";

const TICK_MS = 250;

/**
 * The mock bank: bank accounts that verify themselves, the user's wallets, and deposits that mint
 * real USDX with the server's minter key. Every timer is a timestamp in the row, and a worker moves
 * rows whose time has come, so a restart resumes where the last process stopped.
 *
 * Modes (MOCK_BANK): 'local', the spec's bank on the local chain (any wallet, no daily caps);
 * 'faucet', a capped test faucet (proved wallets only, daily caps per user and in all); 'off'.
 * It refuses to run on a mainnet, by its configured chain and by the chain its node reports.
 */
export class MockBankService {
  private readonly minter: Wallet | null;
  private readonly ticker: Ticker<void>;
  private readonly worker: MintWorker | null;
  private readonly accounts: BankAccounts;
  private readonly wallets: BankWallets;
  private readonly deposits: Deposits;
  private readonly faucet: FaucetLimits | null;
  /** True once the node's chain id has been read and accepted. */
  private chainChecked = false;

  constructor(
    db: Database,
    chain: Chain,
    private readonly options: BankConfig,
    private readonly log: Logger,
    /** Wallets' balances, shared by every request until the head moves (chain/headCache.ts). */
    balances: HeadCache,
  ) {
    const on = options.mode !== "off" && options.minterKey !== null;
    this.minter = on ? new Wallet(options.minterKey!, chain.provider) : null;
    // A mint this server made shows in the wallet's next listing, before the loops read the new head.
    const minted = (address: string) => balances.forget(balanceKey(address));
    this.worker = on ? new MintWorker(db, chain, this.minter!, options.mode as "local" | "faucet", log, minted) : null;
    this.faucet = options.mode === "faucet" ? new FaucetLimits(db, options) : null;
    this.accounts = new BankAccounts(db, options);
    this.wallets = new BankWallets(db, chain, options, log, balances);
    this.deposits = new Deposits(db, options, this.faucet);
    this.ticker = new Ticker(() => this.tick(() => this.ticker.running), TICK_MS, log, "mock bank");
  }

  /** 'local' or 'faucet' while it runs; 'off' when configured off or refused (a mainnet, the wrong chain). */
  get mode(): BankConfig["mode"] {
    return this.enabled ? this.options.mode : "off";
  }

  /** False when the bank is off or refused: every bank route then answers 503 with `offReason`. */
  get enabled(): boolean {
    return this.worker !== null && this.worker.refused === null;
  }

  /** Why the bank is off, in a sentence; null while it runs. */
  get offReason(): string | null {
    if (this.enabled) return null;
    return this.worker?.refused ?? this.options.offReason ?? "The mock bank is off on this server.";
  }

  /** What the deposit screen shows: fee, rate, limits, timings, and in faucet mode what is left today (the key never leaves). */
  async terms(uid: string): Promise<BankTerms> {
    const faucet = this.faucet ? await this.faucet.left(uid) : null;
    const maxUsd = this.faucet ? BigInt(Math.min(Number(MAX_DEPOSIT_USD), this.faucet.maxDepositUsd)) : MAX_DEPOSIT_USD;
    return {
      fee: DEPOSIT_FEE,
      rate: USD_PER_USDX,
      maxDeposit: `${maxUsd}.00`,
      verifyMs: this.options.verifyMs,
      processingMs: this.options.processingMs,
      completeMs: this.options.completeMs,
      minter: this.minter?.address ?? null,
      mode: this.options.mode === "faucet" ? "faucet" : "local",
      walletProofRequired: this.options.mode === "faucet",
      maxAccounts: this.options.maxAccounts,
      maxWallets: this.options.maxWallets,
      faucet,
    };
  }

  start(): void {
    if (!this.worker) {
      this.log.info({ reason: this.options.offReason }, "mock bank off");
      return;
    }
    if (this.worker.refused) {
      this.log.error(this.worker.refused);
      return;
    }
    this.log.info({ mode: this.options.mode, minter: this.minter!.address }, "mock bank on");
    // A failed step (the node or the database away) is retried; rows keep their timestamps, so nothing is lost.
    this.ticker.start();
  }

  stop(): Promise<void> {
    return this.ticker.stop();
  }

  status(): { running: boolean; lastError: string | null } {
    return { running: this.ticker.running, lastError: this.worker?.refused ?? this.ticker.lastError };
  }

  /** One worker step now, whether or not the worker runs (tests stop it and step it by hand). */
  runOnce(): Promise<void> {
    return this.tick(() => true);
  }

  // ---------------------------------------------------------------- bank accounts

  listAccounts(uid: string): Promise<BankAccount[]> {
    return this.accounts.list(uid);
  }

  addAccount(uid: string, input: NewBankAccount): Promise<BankAccount> {
    return this.accounts.add(uid, input);
  }

  removeAccount(uid: string, id: number): Promise<void> {
    return this.accounts.remove(uid, id);
  }

  // ---------------------------------------------------------------- wallets

  listWallets(user: SessionUser): Promise<BankWallet[]> {
    return this.wallets.list(user);
  }

  issueWalletChallenge(user: SessionUser, address: string): Promise<BankWalletChallenge> {
    return this.wallets.issueChallenge(user, address);
  }

  addWallet(user: SessionUser, input: { name: string; address: string; proof?: WalletProof }): Promise<BankWallet> {
    return this.wallets.add(user, input);
  }

  verifyWallet(user: SessionUser, id: number, proof: WalletProof): Promise<BankWallet> {
    return this.wallets.verify(user, id, proof);
  }

  setPrimaryWallet(uid: string, id: number): Promise<BankWallet> {
    return this.wallets.setPrimary(uid, id);
  }

  removeWallet(uid: string, id: number): Promise<void> {
    return this.wallets.remove(uid, id);
  }

  // ---------------------------------------------------------------- deposits

  listDeposits(uid: string): Promise<Deposit[]> {
    return this.deposits.list(uid);
  }

  getDeposit(uid: string, id: number): Promise<Deposit> {
    return this.deposits.get(uid, id);
  }

  /** `clientIp`: the address that asks (as the rate limits key it), for the faucet's per-address cap. */
  async createDeposit(user: SessionUser, input: NewDeposit, clientIp: string): Promise<Deposit> {
    await this.accounts.verifyDue(user.uid);
    if (input.walletId === undefined) await this.wallets.adoptSignInWallet(user);
    return this.deposits.create(user, input, clientIp);
  }

  // ---------------------------------------------------------------- the worker

  /** One step: verify accounts, start deposits, check the node's chain (until accepted once), then mint. */
  private async tick(go: () => boolean): Promise<void> {
    await this.accounts.verifyDue();
    await this.deposits.startDue();
    if (!this.worker) return;
    if (!this.chainChecked) {
      this.chainChecked = await this.worker.checkChain();
      if (!this.chainChecked) {
        // Refused for good: the loop ends (not awaited: this step is the one it would wait for).
        void this.ticker.stop();
        return;
      }
    }
    await this.worker.step(go);
  }
}
