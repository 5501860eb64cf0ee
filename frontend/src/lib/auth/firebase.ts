import type { AppConfig } from "@/lib/config";
import { AuthFailure } from "./messages";
import { setTokenGetter, useSession } from "./session";
import { FIREBASE_DB, KEPT_USER_WAIT_MS, storedUser } from "./storedUser";

/**
 * The sign-in functions pages call. Firebase (about 30 KB gzipped, ./firebaseSdk.ts) loads behind
 * them when it is first needed, not with the page: a browser that has never signed in here has no
 * session for Firebase to restore, so /login draws at once and Firebase loads when the person
 * starts on the form (prepareAuth) or submits it. A page that needs a session, or a browser that
 * may hold one (Firebase's stored state is there), loads it at start, as before, and the guards
 * wait for its answer; on a page that needs a session, only until the user Firebase kept here is
 * read (restoreKeptUser), when there is one.
 */

type Sdk = typeof import("./firebaseSdk");

let config: AppConfig | null = null;
let sdk: Promise<Sdk> | null = null;

// Kept beside the stored user it waits for (./storedUser.ts), where "/"'s boot script takes it too.
export { KEPT_USER_WAIT_MS };

/** Firebase's localStorage keys' prefix (when IndexedDB is unavailable). */
const FIREBASE_KEY_PREFIX = "firebase:";

/**
 * Whether Firebase may have a signed-in user to restore in this browser: its database or keys exist.
 * Unsure (no indexedDB.databases, storage refused) counts as yes: loading Firebase is the safe side.
 */
export async function mayHaveSession(): Promise<boolean> {
  try {
    if (Object.keys(localStorage).some((key) => key.startsWith(FIREBASE_KEY_PREFIX))) return true;
    if (typeof indexedDB === "undefined" || typeof indexedDB.databases !== "function") return true;
    return (await indexedDB.databases()).some((db) => db.name === FIREBASE_DB);
  } catch {
    return true;
  }
}

/** Firebase, started once from the server's configuration. */
function loaded(): Promise<Sdk> {
  if (!config) return Promise.reject(new AuthFailure("Sign-in is not ready yet. Reload the page."));
  const started = config;
  // A call to the API made while Firebase loads waits for it, and for its word on who is signed
  // in, rather than going without the token (Firebase's own getter takes over once it has started).
  if (!sdk)
    setTokenGetter(() =>
      loaded().then(
        (m) => m.idToken(),
        () => null,
      ),
    );
  sdk ??= import("./firebaseSdk").then(
    (m) => {
      m.startAuth(started);
      return m;
    },
    () => {
      sdk = null; // the next attempt downloads it again
      throw new AuthFailure("Sign-in could not be loaded: check your connection and try again.");
    },
  );
  return sdk;
}

/**
 * Starts sign-in. On a page that needs a session, Firebase at once (it says who is signed in; a
 * visitor without one is sent to /login). On a sign-in screen (`signInScreen`), Firebase only
 * when this browser may hold a session; else nobody is signed in, at once, and Firebase waits for
 * prepareAuth or a sign-in.
 */
export async function startAuth(appConfig: AppConfig, { signInScreen }: { signInScreen: boolean }): Promise<void> {
  config = appConfig;
  if (!signInScreen || (await mayHaveSession())) await loaded();
  else if (!useSession.getState().ready) useSession.getState().setUser(null);
}

/**
 * On a page that needs a session: the user Firebase kept in this browser (./storedUser.ts, read in
 * a few milliseconds) is the session while Firebase checks it with its server, so the page is drawn
 * without waiting for that round trip; Firebase's answer then stands (a session ended elsewhere
 * goes to /login, as before). Nothing when Firebase has answered already, or kept nobody.
 * Called before the app's first render: a session set during it would make React render it again,
 * all at once.
 */
export async function restoreKeptUser(appConfig: AppConfig): Promise<void> {
  const gaveUp = new Promise<null>((resolve) => setTimeout(() => resolve(null), KEPT_USER_WAIT_MS));
  const user = await Promise.race([storedUser(appConfig.firebase.apiKey), gaveUp]);
  if (user && !useSession.getState().ready) useSession.getState().setUser(user);
}

/** Loads Firebase ahead of a sign-in (the person has started on a form); failures surface at the sign-in. */
export function prepareAuth(): void {
  loaded().catch(() => undefined);
}

export async function signInWithEmail(email: string, password: string): Promise<void> {
  return (await loaded()).signInWithEmail(email, password);
}

export async function signUpWithEmail(email: string, password: string): Promise<void> {
  return (await loaded()).signUpWithEmail(email, password);
}

/** PRODUCT.md section 2: a real reset email (the emulator prints the link in its log). */
export async function sendPasswordReset(email: string): Promise<void> {
  return (await loaded()).sendPasswordReset(email);
}

export async function signOutUser(): Promise<void> {
  return (await loaded()).signOutUser();
}

/** Wallet sign-in with SIWE (firebaseSdk.ts's signInWithWallet). */
export async function signInWithWallet(chainId: number): Promise<void> {
  return (await loaded()).signInWithWallet(chainId);
}
