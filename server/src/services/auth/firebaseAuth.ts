import { randomUUID } from "node:crypto";
import { App, deleteApp, initializeApp } from "firebase-admin/app";
import { getAuth } from "firebase-admin/auth";
import type { Config } from "../../config";
import { isListedAdmin } from "./walletSessions";

/** Who made a request, from a verified Firebase ID token. */
export type { SessionUser } from "@common/api/signIn";
import type { SessionUser } from "@common/api/signIn";

export interface AuthProvider {
  /** Verifies an ID token; rejects with a Firebase error (code 'auth/...') when it is not valid. */
  verifyIdToken(token: string): Promise<SessionUser>;
  createCustomToken(uid: string, claims: Record<string, unknown>): Promise<string>;
  /** Ends every session of `uid`: its refresh tokens are revoked, and its ID tokens refused from now on. A user that does not exist has none. */
  revokeSessions(uid: string): Promise<void>;
  /** The emulator answers, or a real project is configured. */
  ping(): Promise<boolean>;
  mode: "emulator" | "firebase";
  close(): Promise<void>;
}

/** A token refused before firebase-admin sees it, coded like the SDK's own refusals. */
class UnsignedTokenError extends Error {
  readonly code = "auth/argument-error";
}

/** True when the token's header names Google's signature (RS256 and a key id), as every real Firebase ID token's does. */
export function claimsGoogleSignature(token: string): boolean {
  try {
    const header = JSON.parse(Buffer.from(token.split(".")[0], "base64url").toString("utf8")) as { alg?: unknown; kid?: unknown };
    return header.alg === "RS256" && typeof header.kid === "string" && header.kid !== "";
  } catch {
    return false;
  }
}

/**
 * How long a verified token is taken on trust before it is checked again. A real project's check is
 * local (Google's keys, the token's expiry) and never asks whether the user was disabled; with the
 * emulator the SDK asks it on every call, which under load costs more than the request itself.
 * Caching for a minute (never past the token's own expiry) makes both modes behave alike.
 */
export const VERIFIED_TOKEN_TTL_MS = 60_000;
const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

/**
 * firebase-admin for the configured project. The SDK accepts unsigned tokens only while
 * FIREBASE_AUTH_EMULATOR_HOST is set, so it is set exactly when the config names an emulator and
 * removed otherwise: a real project's tokens are always checked against Google's keys. A session's
 * `admin` is whether `adminWallets` (the running server's ADMIN_WALLETS) lists its wallet.
 */
export function createFirebaseAuth(firebase: Config["firebase"], adminWallets: readonly string[]): AuthProvider {
  if (firebase.emulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = firebase.emulatorHost;
  else delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  const app: App = initializeApp({ projectId: firebase.projectId }, `usdx-api-${randomUUID()}`);
  const auth = getAuth(app);
  // token -> who it names and until when; Map order is insertion order, so the first key is the oldest.
  const verified = new Map<string, { user: SessionUser; until: number }>();
  return {
    mode: firebase.emulatorHost ? "emulator" : "firebase",
    async verifyIdToken(token) {
      // The SDK reads FIREBASE_AUTH_EMULATOR_HOST from the process on every call, so anything that
      // sets it later (another server in the same process, a library, a test) would make it accept
      // unsigned tokens here. Without an emulator in our own config, only a signed token gets through.
      if (!firebase.emulatorHost && !claimsGoogleSignature(token)) {
        throw new UnsignedTokenError(
          "Only a Firebase ID token signed by Google is accepted: this server is not configured for the Auth emulator.",
        );
      }
      const now = Date.now();
      const known = verified.get(token);
      if (known && known.until > now) return known.user;
      // checkRevoked: a session ended by revokeSessions (a wallet removed from ADMIN_WALLETS) is refused.
      // The emulator is always asked (the SDK does so itself); a real project once per token per cache period.
      const decoded = await auth.verifyIdToken(token, true);
      const wallet = typeof decoded.wallet === "string" ? decoded.wallet : null;
      const user: SessionUser = {
        uid: decoded.uid,
        email: decoded.email ?? null,
        wallet,
        admin: isListedAdmin(decoded.uid, wallet, adminWallets),
      };
      verified.delete(token);
      if (verified.size >= VERIFIED_TOKEN_CACHE_SIZE) verified.delete(verified.keys().next().value!);
      verified.set(token, { user, until: Math.min(now + VERIFIED_TOKEN_TTL_MS, decoded.exp * 1000) });
      return user;
    },
    createCustomToken: (uid, claims) => auth.createCustomToken(uid, claims),
    async revokeSessions(uid) {
      try {
        await auth.revokeRefreshTokens(uid);
      } catch (error) {
        if ((error as { code?: unknown }).code !== "auth/user-not-found") throw error;
      }
      for (const [token, known] of verified) if (known.user.uid === uid) verified.delete(token);
    },
    async ping() {
      if (!firebase.emulatorHost) return true;
      try {
        const res = await fetch(`http://${firebase.emulatorHost}/`, { signal: AbortSignal.timeout(2000) });
        return res.ok;
      } catch {
        return false;
      }
    },
    close: () => deleteApp(app),
  };
}
