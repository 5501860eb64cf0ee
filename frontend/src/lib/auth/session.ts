import { create } from "zustand";

/** Who is signed in (PRODUCT.md section 3's stored user), as Firebase and the server's claims say. */
export interface SessionUser {
  uid: string;
  /** Email sign-ins. */
  email: string | null;
  /** Wallet sign-ins (SIWE): the checksummed address. */
  wallet: string | null;
  /** The server's admin claim (ADMIN_WALLETS after a verified SIWE sign-in). */
  admin: boolean;
}

interface SessionState {
  user: SessionUser | null;
  /** False until Firebase has said whether a user is signed in (guards wait for it). */
  ready: boolean;
  setUser(user: SessionUser | null): void;
}

/** The session user from Firebase's user and its ID token's claims, which the server sets (wallet, admin). */
export function sessionUserOf(uid: string, email: string | null, claims: Record<string, unknown>): SessionUser {
  return {
    uid,
    email,
    wallet: typeof claims.wallet === "string" ? claims.wallet : null,
    admin: claims.admin === true,
  };
}

const sameUser = (a: SessionUser | null, b: SessionUser | null) =>
  a === b || (a !== null && b !== null && a.uid === b.uid && a.email === b.email && a.wallet === b.wallet && a.admin === b.admin);

export const useSession = create<SessionState>((set) => ({
  user: null,
  ready: false,
  // The same user again (Firebase confirming the stored one, a token refresh) keeps the object, so
  // nothing that shows the user renders again for it.
  setUser: (user) => set((s) => ({ user: sameUser(s.user, user) ? s.user : user, ready: true })),
}));

/**
 * Where the API client (lib/api.ts) gets the signed-in user's ID token: here, beside the session,
 * so the sign-in module every page starts with (./firebase.ts) sets it without bringing the client
 * along to /login.
 */
type TokenGetter = () => Promise<string | null>;
let getToken: TokenGetter = async () => null;

/** The session sets where tokens come from (Firebase refreshes them as they expire). */
export function setTokenGetter(getter: TokenGetter): void {
  getToken = getter;
}

/** The signed-in user's ID token (fresh: Firebase renews it near expiry), or null when signed out. */
export function currentIdToken(): Promise<string | null> {
  return getToken();
}
