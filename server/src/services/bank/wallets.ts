import { randomBytes } from "node:crypto";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { formatUnits, getAddress, verifyMessage } from "ethers";
import { parseAddress } from "@common/addresses";
import type { WalletProof } from "@common/api/bankInput";
import type { BankWallet, BankWalletChallenge } from "@common/apiTypes";
import { TOKEN_DECIMALS } from "@common/token";
import type { Chain } from "../../chain/client";
import type { HeadCache } from "../../chain/headCache";
import type { BankConfig } from "../../config";
import type { Database } from "../../db/client";
import { bankWalletChallenges, bankWallets } from "../../db/schema";
import { conflict, forbidden, notFound } from "../../lib/errors";
import { errorText, type Logger } from "../../lib/logger";
import type { SessionUser } from "../auth/firebaseAuth";
import { fromChain } from "../indexing/tokenState";
import { type Tx, type WalletRow, lock } from "./shared";

/** A challenge is good for five minutes and one wallet. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** The wallet a wallet sign-in brings along, named so the user can tell it apart. */
const SIGN_IN_WALLET_NAME = "Sign-in wallet";
/** What the user signs, and what the server checks, names this dashboard. */
export const DASHBOARD_NAME = "USDX Dashboard";

/** A wallet's balance in the chain reads' cache (chain/headCache.ts): one entry per address, whoever lists it. */
export const balanceKey = (address: string) => `balanceOf:${address.toLowerCase()}`;

/** Proved by the user's own wallet sign-in (the verified token's wallet claim). */
const isSignInWallet = (user: SessionUser, address: string) => user.wallet !== null && user.wallet.toLowerCase() === address.toLowerCase();

/** True when the user has proved they control the wallet: a signed challenge, or their wallet sign-in. */
export function isProved(row: WalletRow, user: SessionUser): boolean {
  return row.verifiedAt !== null || isSignInWallet(user, row.address);
}

/**
 * The user's wallets for the mock bank: one is primary; at most `maxWallets`. A wallet is verified
 * when the user proved they control it: it is their wallet sign-in's address, or they signed a
 * challenge this server issued for them and that address. The test faucet mints only to those.
 */
export class BankWallets {
  constructor(
    private readonly db: Database,
    private readonly chain: Chain,
    private readonly options: Pick<BankConfig, "maxWallets">,
    private readonly log: Logger,
    /** Balances shared by every request until the head moves: a listing costs the provider nothing per request. */
    private readonly balances: HeadCache,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(user: SessionUser): Promise<BankWallet[]> {
    await this.adoptSignInWallet(user);
    const rows = await this.db
      .select()
      .from(bankWallets)
      .where(eq(bankWallets.uid, user.uid))
      .orderBy(bankWallets.createdAt, bankWallets.id);
    return this.withBalances(rows);
  }

  /**
   * A message for the user to sign with `address`: names the dashboard, the user, the address and
   * the chain; single-use; expires in five minutes. Only the issued text is ever checked.
   */
  async issueChallenge(user: SessionUser, addressInput: string): Promise<BankWalletChallenge> {
    // Checked by the declaration (0x and 40 hex, its checksum, not the zero address): here only checksummed.
    const address = parseAddress(addressInput);
    const nonce = randomBytes(16).toString("hex");
    const issuedAt = this.now();
    const expiresAt = new Date(issuedAt.getTime() + CHALLENGE_TTL_MS);
    const account = user.email ? `${user.email} (${user.uid})` : user.uid;
    const message = [
      `${DASHBOARD_NAME}: prove that you control this wallet, so the mock bank may mint test USDX to it.`,
      "",
      `Wallet: ${address}`,
      `Dashboard account: ${account}`,
      `Chain ID: ${this.chain.manifest.chainId}`,
      `Nonce: ${nonce}`,
      `Issued At: ${issuedAt.toISOString()}`,
      `Expiration Time: ${expiresAt.toISOString()}`,
      "",
      "Signing costs nothing and sends no transaction.",
    ].join("\n");
    await this.db.insert(bankWalletChallenges).values({ nonce, uid: user.uid, address, message, createdAt: issuedAt, expiresAt });
    // Old challenges are of no use to anyone: drop those a day past their expiry.
    await this.db.delete(bankWalletChallenges).where(lt(bankWalletChallenges.expiresAt, new Date(issuedAt.getTime() - 86_400_000)));
    return { challenge: nonce, message, address, expiresAt: expiresAt.toISOString() };
  }

  /** Adds a wallet; with a proof (a signed challenge) it is verified at once. */
  async add(user: SessionUser, input: { name: string; address: string; proof?: WalletProof }): Promise<BankWallet> {
    const address = parseAddress(input.address);
    const uid = user.uid;
    const row = await this.db.transaction(async (tx) => {
      await lockUserWallets(tx, uid);
      const existing = await tx.select().from(bankWallets).where(eq(bankWallets.uid, uid));
      const same = existing.find((w) => w.address.toLowerCase() === address.toLowerCase());
      if (same) throw conflict(`Duplicate Wallet: ${address} is already in your wallets as '${same.name}'.`);
      if (existing.length >= this.options.maxWallets) {
        throw conflict(
          `Wallet Limit Reached: you have ${existing.length} wallets, the most one user may keep (${this.options.maxWallets}); remove one to add another.`,
        );
      }
      let verifiedBy: "sign-in" | "signature" | null = isSignInWallet(user, address) ? "sign-in" : null;
      if (input.proof) {
        await this.spendProof(tx, user, address, input.proof);
        verifiedBy ??= "signature";
      }
      // The first wallet is the primary one.
      const now = this.now();
      const [inserted] = await tx
        .insert(bankWallets)
        .values({
          uid,
          name: input.name.trim(),
          address,
          isPrimary: existing.length === 0,
          createdAt: now,
          verifiedAt: verifiedBy ? now : null,
          verifiedBy,
        })
        .returning();
      return inserted;
    });
    return (await this.withBalances([row]))[0];
  }

  /** Marks one of the user's wallets verified by a signed challenge for its address. */
  async verify(user: SessionUser, id: number, proof: WalletProof): Promise<BankWallet> {
    const row = await this.db.transaction(async (tx) => {
      await lockUserWallets(tx, user.uid);
      const [target] = await tx
        .select()
        .from(bankWallets)
        .where(and(eq(bankWallets.id, id), eq(bankWallets.uid, user.uid)));
      if (!target) throw notFound(`Wallet ${id} was not found among your wallets.`);
      await this.spendProof(tx, user, target.address, proof);
      if (target.verifiedAt) return target;
      const [updated] = await tx
        .update(bankWallets)
        .set({ verifiedAt: this.now(), verifiedBy: "signature" })
        .where(eq(bankWallets.id, id))
        .returning();
      return updated;
    });
    return (await this.withBalances([row]))[0];
  }

  /**
   * Checks a proof and spends its challenge (in the caller's transaction): the challenge must have
   * been issued here, to this user, for this address, unused and unexpired, and the signature of its
   * exact text must recover to the address. The signature is checked before the challenge is spent,
   * so a forged attempt cannot use up someone's challenge.
   */
  private async spendProof(tx: Tx, user: SessionUser, address: string, proof: WalletProof): Promise<void> {
    const [challenge] = await tx.select().from(bankWalletChallenges).where(eq(bankWalletChallenges.nonce, proof.challenge)).for("update");
    if (!challenge || challenge.uid !== user.uid || challenge.address.toLowerCase() !== address.toLowerCase()) {
      throw forbidden(
        `Wallet Not Verified: this signing request was not issued to you for ${address}. Ask for a new one and sign it with that wallet.`,
      );
    }
    const now = this.now();
    if (challenge.usedAt)
      throw forbidden("Wallet Not Verified: this signing request was already used. Ask for a new one and sign it again.");
    if (challenge.expiresAt <= now)
      throw forbidden(
        "Wallet Not Verified: this signing request has expired (it is good for five minutes). Ask for a new one and sign it again.",
      );
    let signer: string;
    try {
      signer = verifyMessage(challenge.message, proof.signature);
    } catch {
      throw forbidden("Wallet Not Verified: the signature is not a valid Ethereum signature of the signing request.");
    }
    if (signer !== getAddress(address))
      throw forbidden(`Wallet Not Verified: the signing request was not signed by ${getAddress(address)}.`);
    const spent = await tx
      .update(bankWalletChallenges)
      .set({ usedAt: now })
      .where(and(eq(bankWalletChallenges.nonce, proof.challenge), isNull(bankWalletChallenges.usedAt)))
      .returning({ nonce: bankWalletChallenges.nonce });
    if (spent.length === 0)
      throw forbidden("Wallet Not Verified: this signing request was already used. Ask for a new one and sign it again.");
  }

  async setPrimary(uid: string, id: number): Promise<BankWallet> {
    const row = await this.db.transaction(async (tx) => {
      await lockUserWallets(tx, uid);
      const [target] = await tx
        .select()
        .from(bankWallets)
        .where(and(eq(bankWallets.id, id), eq(bankWallets.uid, uid)));
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

  async remove(uid: string, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await lockUserWallets(tx, uid);
      const [target] = await tx
        .select()
        .from(bankWallets)
        .where(and(eq(bankWallets.id, id), eq(bankWallets.uid, uid)));
      if (!target) throw notFound(`Wallet ${id} was not found among your wallets.`);
      if (target.isPrimary) {
        throw conflict(`Cannot Remove Primary Wallet: '${target.name}' is your primary wallet; make another wallet primary first.`);
      }
      await tx.delete(bankWallets).where(eq(bankWallets.id, id));
    });
  }

  /**
   * A wallet sign-in with no wallets yet gets its own address as the primary wallet; its row (new
   * or added before) is marked verified, since the sign-in proved the address.
   */
  async adoptSignInWallet(user: SessionUser): Promise<void> {
    if (!user.wallet) return;
    const address = getAddress(user.wallet);
    await this.db.transaction(async (tx) => {
      await lockUserWallets(tx, user.uid);
      const [any] = await tx.select({ id: bankWallets.id }).from(bankWallets).where(eq(bankWallets.uid, user.uid)).limit(1);
      const now = this.now();
      if (!any) {
        await tx.insert(bankWallets).values({
          uid: user.uid,
          name: SIGN_IN_WALLET_NAME,
          address,
          isPrimary: true,
          createdAt: now,
          verifiedAt: now,
          verifiedBy: "sign-in",
        });
        return;
      }
      await tx
        .update(bankWallets)
        .set({ verifiedAt: now, verifiedBy: "sign-in" })
        .where(
          and(eq(bankWallets.uid, user.uid), sql`lower(${bankWallets.address}) = ${address.toLowerCase()}`, isNull(bankWallets.verifiedAt)),
        );
    });
  }

  private async withBalances(rows: WalletRow[]): Promise<BankWallet[]> {
    const balances = await Promise.all(
      rows.map((w) =>
        // Within the chain reads' deadline: a node that does not answer makes the balance unknown, not the list slow.
        this.balances
          .read(balanceKey(w.address), () => fromChain("a wallet's balance", () => this.chain.usdx.balanceOf(w.address)))
          .catch((error: unknown) => {
            this.log.warn({ err: errorText(error), address: w.address }, "balance read failed");
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
        verified: w.verifiedAt !== null,
        verifiedBy: (w.verifiedBy as "sign-in" | "signature" | null) ?? null,
      };
    });
  }
}

/** Serialises one user's wallet changes (the one-primary rule, the count), on Postgres and PGlite alike. */
function lockUserWallets(tx: Tx, uid: string): Promise<void> {
  return lock(tx, "bankWallets", uid);
}
