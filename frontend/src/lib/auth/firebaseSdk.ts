import { initializeApp, type FirebaseApp } from "@firebase/app";
import {
  browserLocalPersistence,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  indexedDBLocalPersistence,
  initializeAuth,
  onIdTokenChanged,
  sendPasswordResetEmail,
  signInWithCustomToken,
  signInWithEmailAndPassword,
  signOut,
  type Auth,
  type User,
} from "@firebase/auth";
import type { AppConfig } from "@/lib/config";
import { type Answer, call, setTokenGetter } from "@/lib/api";
import type { ErrorAnswer } from "@common/api/endpoint";
import { useWallet } from "@/lib/wallet/store";
import { AuthFailure, resetFailure, signInFailure, signUpFailure, walletAuthFailure } from "./messages";
import { sessionUserOf, useSession, type SessionUser } from "./session";
import { siweMessage, utf8ToHex } from "./siwe";

/**
 * Sign-in through Firebase Authentication (the Auth emulator on the local stack, a real project by
 * configuration), and wallet sign-in with SIWE against the API server. Session state lives in
 * `useSession`; Firebase keeps the tokens (IndexedDB) and refreshes them, and the API client asks it
 * for a fresh ID token on every call. Loaded on demand by ./firebase.ts, which pages import.
 */

let auth: Auth | null = null;

/** Starts Firebase once, from the server's configuration, and follows who is signed in. */
export function startAuth(config: AppConfig): Auth {
  if (auth) return auth;
  const app: FirebaseApp = initializeApp({
    apiKey: config.firebase.apiKey,
    authDomain: config.firebase.authDomain,
    projectId: config.firebase.projectId,
  });
  // initializeAuth without the popup resolver: the dashboard signs in with email or a wallet only.
  auth = initializeAuth(app, { persistence: [indexedDBLocalPersistence, browserLocalPersistence] });
  if (config.firebase.emulatorUrl) connectAuthEmulator(auth, config.firebase.emulatorUrl, { disableWarnings: true });
  setTokenGetter(idToken);
  onIdTokenChanged(auth, (user) => {
    void sessionUser(user).then((u) => useSession.getState().setUser(u));
  });
  return auth;
}

/**
 * The signed-in user's ID token (Firebase renews it near expiry), or null when nobody is signed in.
 * A call made while Firebase is still checking the stored user with its server waits for its
 * answer: the page may already be drawn from that stored user (./firebase.ts, storedUser).
 */
export async function idToken(): Promise<string | null> {
  if (!auth) return null;
  await auth.authStateReady();
  return auth.currentUser ? auth.currentUser.getIdToken() : null;
}

function requireAuth(): Auth {
  if (!auth) throw new AuthFailure("Sign-in is not ready yet. Reload the page.");
  return auth;
}

async function sessionUser(user: User | null): Promise<SessionUser | null> {
  if (!user) return null;
  // The claims come from the server (wallet address, admin for ADMIN_WALLETS), never from the browser.
  const { claims } = await user.getIdTokenResult();
  return sessionUserOf(user.uid, user.email, claims);
}

export async function signInWithEmail(email: string, password: string): Promise<void> {
  try {
    await signInWithEmailAndPassword(requireAuth(), email.trim(), password);
  } catch (error) {
    throw signInFailure(error);
  }
}

export async function signUpWithEmail(email: string, password: string): Promise<void> {
  try {
    await createUserWithEmailAndPassword(requireAuth(), email.trim(), password);
  } catch (error) {
    throw signUpFailure(error);
  }
}

/** PRODUCT.md section 2: a real reset email (the emulator prints the link in its log). */
export async function sendPasswordReset(email: string): Promise<void> {
  try {
    await sendPasswordResetEmail(requireAuth(), email.trim());
  } catch (error) {
    throw resetFailure(error);
  }
}

export async function signOutUser(): Promise<void> {
  await signOut(requireAuth());
}

/** What POST /api/auth/wallet-auth answers (common/api/signIn.ts), or its error. */
type WalletAuthAnswer = Answer<"POST /api/auth/wallet-auth"> | ErrorAnswer;

/**
 * Wallet sign-in: a single-use nonce from the server, an EIP-4361 message signed with the connected
 * wallet (personal_sign), then the server's custom token exchanged with Firebase.
 */
export async function signInWithWallet(chainId: number): Promise<void> {
  const { address, provider } = useWallet.getState();
  if (!address || !provider) throw new AuthFailure("Wallet not connected - Please connect your wallet first");
  try {
    const { nonce, expiresAt } = await call("POST /api/auth/nonce");
    const message = siweMessage({
      domain: window.location.host,
      address,
      uri: window.location.origin,
      chainId,
      nonce,
      issuedAt: new Date(),
      expiresAt: new Date(expiresAt),
    });
    const signature = (await provider.request({ method: "personal_sign", params: [utf8ToHex(message), address] })) as string;
    const res = await fetch("/api/auth/wallet-auth", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address, signature, message }),
    });
    // PRODUCT.md section 7: read as text, then parsed; a non-JSON answer names the status.
    const text = await res.text();
    let answer: WalletAuthAnswer;
    try {
      answer = JSON.parse(text) as WalletAuthAnswer;
    } catch {
      throw new AuthFailure(`Failed to authenticate wallet: ${res.status} ${res.statusText}`);
    }
    if (!res.ok || !answer.success) throw new AuthFailure(("error" in answer && answer.error) || "Failed to authenticate wallet");
    if (!answer.customToken) throw new AuthFailure("No custom token received from server");
    await signInWithCustomToken(requireAuth(), answer.customToken);
  } catch (error) {
    if ((error as { code?: unknown }).code === 4001) throw new AuthFailure("You rejected the sign-in request in your wallet.");
    throw walletAuthFailure(error);
  }
}
