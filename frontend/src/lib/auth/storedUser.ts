import { sessionUserOf, type SessionUser } from "./session";

/**
 * The user Firebase keeps in this browser, read from Firebase's own storage without loading
 * Firebase. Firebase says who is signed in only after checking its stored user with its server (a
 * round trip to another origin, after its 30 KB have loaded); a signed-in page is drawn from this
 * meanwhile, and Firebase's answer then stands (./firebase.ts). The claims are the stored ID
 * token's, read as Firebase's getIdTokenResult reads them: decoded, not verified (the server
 * verifies every token it is sent).
 */

/**
 * How long the first render waits for the user Firebase kept here (read in a few milliseconds):
 * a browser whose storage does not answer gets the page as before, once Firebase has answered
 * (./firebase.ts). "/"'s page built with the Dashboard drawn in waits as long before drawing it.
 */
export const KEPT_USER_WAIT_MS = 300;

/** Firebase's IndexedDB database (indexedDBLocalPersistence) and its one object store. */
export const FIREBASE_DB = "firebaseLocalStorageDb";
export const FIREBASE_STORE = "firebaseLocalStorage";

/** What every key Firebase stores a signed-in user under starts with (the page drawn for "/" looks for one). */
export const STORED_USER_KEY_PREFIX = "firebase:authUser:";
/** The key Firebase stores the default app's signed-in user under, in IndexedDB or localStorage. */
export const storedUserKey = (apiKey: string) => `${STORED_USER_KEY_PREFIX}${apiKey}:[DEFAULT]`;

/** The part of Firebase's stored user read here. */
interface StoredRecord {
  uid?: unknown;
  email?: unknown;
  stsTokenManager?: { accessToken?: unknown };
}

/** The stored user, or null when there is none or it cannot be read (Firebase's answer then decides, as before). */
export async function storedUser(apiKey: string): Promise<SessionUser | null> {
  try {
    const key = storedUserKey(apiKey);
    const saved = localStorage.getItem(key);
    const record = (saved !== null ? JSON.parse(saved) : await fromIndexedDb(key)) as StoredRecord | null;
    if (!record || typeof record.uid !== "string") return null;
    const claims = tokenClaims(record.stsTokenManager?.accessToken);
    if (!claims) return null;
    return sessionUserOf(record.uid, typeof record.email === "string" ? record.email : null, claims);
  } catch {
    return null;
  }
}

/** A JWT's payload. */
function tokenClaims(token: unknown): Record<string, unknown> | null {
  if (typeof token !== "string") return null;
  const payload = token.split(".")[1];
  if (!payload) return null;
  const base64 = payload.replace(/-/g, "+").replace(/_/g, "/");
  const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, "=")), (c) => c.charCodeAt(0));
  const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
  return claims !== null && typeof claims === "object" ? (claims as Record<string, unknown>) : null;
}

/** The value under `key` in Firebase's database; null without one. Never creates the database. */
async function fromIndexedDb(key: string): Promise<unknown> {
  if (typeof indexedDB === "undefined") return null;
  if (typeof indexedDB.databases === "function" && !(await indexedDB.databases()).some((db) => db.name === FIREBASE_DB)) return null;
  return new Promise((resolve) => {
    const request = indexedDB.open(FIREBASE_DB);
    // No database: leave it uncreated (Firebase creates it, with its store, when someone signs in).
    request.onupgradeneeded = () => request.transaction?.abort();
    request.onerror = () => resolve(null);
    request.onblocked = () => resolve(null);
    request.onsuccess = () => {
      const db = request.result;
      const done = (value: unknown) => {
        db.close();
        resolve(value);
      };
      try {
        if (!db.objectStoreNames.contains(FIREBASE_STORE)) return done(null);
        const read = db.transaction(FIREBASE_STORE, "readonly").objectStore(FIREBASE_STORE).get(key);
        read.onsuccess = () => done((read.result as { value?: unknown } | undefined)?.value ?? null);
        read.onerror = () => done(null);
      } catch {
        done(null);
      }
    };
  });
}
