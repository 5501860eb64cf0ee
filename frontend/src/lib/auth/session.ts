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

export const useSession = create<SessionState>((set) => ({
  user: null,
  ready: false,
  setUser: (user) => set({ user, ready: true }),
}));
