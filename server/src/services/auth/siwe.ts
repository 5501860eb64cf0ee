import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { getAddress, verifyMessage } from "ethers";
import { SiweMessage } from "siwe";
import type { Database } from "../../db/client";
import { siweNonces } from "../../db/schema";
import { badRequest, unauthorized, unavailable } from "../../lib/errors";
import type { AuditService } from "./audit";
import type { AuthProvider } from "./firebaseAuth";
import { ADMIN_SIGNED_IN, walletUid } from "./walletSessions";

// A nonce is good for five minutes and one sign-in.
export const NONCE_TTL_MS = 5 * 60 * 1000;

/**
 * Sign-In with Ethereum (EIP-4361) against single-use, short-lived nonces. A message is accepted
 * once, for this dashboard's domain and chain, signed by the address it names; the answer is a
 * Firebase custom token, with the `admin` claim for addresses in ADMIN_WALLETS. The claim is for the
 * dashboard's menus only: the server asks ADMIN_WALLETS again on every request (walletSessions.ts), and an
 * admin's sign-in goes in the audit log, so that a later start without the wallet ends its sessions.
 */
export class SiweService {
  constructor(
    private readonly db: Database,
    private readonly auth: AuthProvider,
    private readonly audit: AuditService,
    private readonly settings: { domains: string[]; chainId: number; adminWallets: string[] },
    private readonly now: () => Date = () => new Date(),
  ) {}

  async issueNonce(): Promise<{ nonce: string; expiresAt: string }> {
    const nonce = randomBytes(16).toString("hex");
    const expiresAt = new Date(this.now().getTime() + NONCE_TTL_MS);
    await this.db.insert(siweNonces).values({ nonce, expiresAt });
    // Old nonces are of no use to anyone: drop those a day past their expiry.
    await this.db.delete(siweNonces).where(lt(siweNonces.expiresAt, new Date(this.now().getTime() - 86_400_000)));
    return { nonce, expiresAt: expiresAt.toISOString() };
  }

  async signIn(input: {
    address: string;
    message: string;
    signature: string;
  }): Promise<{ customToken: string; uid: string; admin: boolean }> {
    let message: SiweMessage;
    try {
      message = new SiweMessage(input.message);
    } catch {
      throw badRequest("Invalid custom token: the message is not a Sign-In with Ethereum (EIP-4361) message.");
    }
    const address = getAddress(input.address);
    if (getAddress(message.address) !== address) {
      throw unauthorized(`Token mismatch: the message signs in ${message.address}, not ${address}.`);
    }
    if (!this.settings.domains.includes(message.domain)) {
      throw unauthorized(`Invalid custom token: the message is for ${message.domain}, not this dashboard.`);
    }
    if (message.chainId !== this.settings.chainId) {
      throw unauthorized(
        `Invalid custom token: the message is for chain ${message.chainId}; this dashboard runs on chain ${this.settings.chainId}.`,
      );
    }
    const now = this.now();
    if (message.expirationTime && new Date(message.expirationTime) <= now) {
      throw unauthorized("Invalid custom token: the sign-in message has expired. Sign in again.");
    }
    if (message.notBefore && new Date(message.notBefore) > now) {
      throw unauthorized("Invalid custom token: the sign-in message is not valid yet.");
    }
    let signer: string;
    try {
      signer = verifyMessage(input.message, input.signature);
    } catch {
      throw unauthorized("Token mismatch: the signature is not a valid Ethereum signature.");
    }
    if (signer !== address) throw unauthorized(`Token mismatch: the message was not signed by ${address}.`);

    // Last, so a forged request cannot spend someone else's nonce: one sign-in per nonce.
    const used = await this.db
      .update(siweNonces)
      .set({ usedAt: now, usedBy: address })
      .where(and(eq(siweNonces.nonce, message.nonce), isNull(siweNonces.usedAt), gt(siweNonces.expiresAt, now)))
      .returning({ nonce: siweNonces.nonce });
    if (used.length === 0) {
      throw unauthorized(
        "Invalid custom token: this sign-in message was already used, has expired, or was not issued here. Sign in again.",
      );
    }

    const uid = walletUid(address);
    const admin = this.settings.adminWallets.includes(address);
    let customToken: string;
    try {
      customToken = await this.auth.createCustomToken(uid, admin ? { wallet: address, admin: true } : { wallet: address });
    } catch (error) {
      // A real project without usable credentials, or Google not answering: the nonce is spent, but
      // the client is told plainly to try again, and the cause goes to the log (errorHandler logs 5xx).
      throw Object.assign(
        unavailable("Cannot sign you in right now: the identity service did not issue a sign-in token. Try again later."),
        { cause: error },
      );
    }
    if (admin) await this.audit.record({ uid, email: null, wallet: address, admin }, ADMIN_SIGNED_IN, {});
    return { customToken, uid, admin };
  }
}
