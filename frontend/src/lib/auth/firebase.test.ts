import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { testConfig } from "@/test/config";

// Firebase itself is not started here (the browser suite signs in through it for real): what is
// tested is when this module loads it.
const onLogin = { signInScreen: true };

const sdk = vi.hoisted(() => ({
  loads: 0,
  fail: false,
  startAuth: vi.fn(),
  signInWithEmail: vi.fn(async () => undefined),
  idToken: vi.fn(async (): Promise<string | null> => null),
}));

/** Fresh copies of the module (its loaded Firebase is module state), the session and the stand-in SDK. */
async function freshModule() {
  vi.resetModules();
  vi.doMock("./firebaseSdk", () => {
    sdk.loads += 1;
    if (sdk.fail) throw new Error("Failed to fetch dynamically imported module");
    return { startAuth: sdk.startAuth, signInWithEmail: sdk.signInWithEmail, idToken: () => sdk.idToken() };
  });
  const { useSession } = await import("./session");
  useSession.setState({ user: null, ready: false });
  return { ...(await import("./firebase")), useSession };
}

function databases(names: string[] | Error) {
  vi.stubGlobal("indexedDB", {
    databases: vi.fn(async () => {
      if (names instanceof Error) throw names;
      return names.map((name) => ({ name, version: 1 }));
    }),
  });
}

beforeEach(() => {
  sdk.loads = 0;
  sdk.fail = false;
  sdk.startAuth.mockClear();
  sdk.signInWithEmail.mockClear();
  sdk.idToken.mockReset().mockResolvedValue(null);
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe("sign-in's Firebase, loaded when it is needed", () => {
  it("a browser that never signed in: nobody is signed in at once, and Firebase is not loaded", async () => {
    databases(["other-app-db"]);
    const auth = await freshModule();
    await auth.startAuth(testConfig(), onLogin);
    expect(auth.useSession.getState()).toMatchObject({ ready: true, user: null });
    expect(sdk.loads).toBe(0);
  });

  it("a page that needs a session loads it at once, and waits for its answer when this browser kept nobody", async () => {
    databases([]);
    const auth = await freshModule();
    await auth.startAuth(testConfig(), { signInScreen: false });
    expect(sdk.startAuth).toHaveBeenCalledTimes(1);
    await auth.restoreKeptUser(testConfig());
    expect(auth.useSession.getState().ready).toBe(false);
  });

  it("a browser whose storage does not answer gets the page once Firebase has answered, as before", async () => {
    const never = new Promise<never>(() => undefined);
    vi.stubGlobal("indexedDB", { databases: () => never });
    vi.useFakeTimers();
    try {
      const auth = await freshModule();
      const restored = auth.restoreKeptUser(testConfig());
      await vi.advanceTimersByTimeAsync(auth.KEPT_USER_WAIT_MS);
      await restored;
      expect(auth.useSession.getState().ready).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it("Firebase's answer, when it came first, is not replaced by the user kept here", async () => {
    const config = testConfig();
    const claims = btoa(JSON.stringify({}));
    localStorage.setItem(
      `firebase:authUser:${config.firebase.apiKey}:[DEFAULT]`,
      JSON.stringify({ uid: "u1", email: "ann@example.com", stsTokenManager: { accessToken: `h.${claims}.s` } }),
    );
    const auth = await freshModule();
    auth.useSession.getState().setUser(null);
    await auth.restoreKeptUser(config);
    expect(auth.useSession.getState()).toMatchObject({ ready: true, user: null });
  });

  it("a page that needs a session is drawn for the user Firebase kept here while Firebase checks it; Firebase's answer stands", async () => {
    const config = testConfig();
    const claims = btoa(JSON.stringify({ admin: true }));
    localStorage.setItem(
      `firebase:authUser:${config.firebase.apiKey}:[DEFAULT]`,
      JSON.stringify({ uid: "u1", email: "ann@example.com", stsTokenManager: { accessToken: `h.${claims}.s` } }),
    );
    const auth = await freshModule();
    await auth.startAuth(config, { signInScreen: false });
    await auth.restoreKeptUser(config);
    expect(auth.useSession.getState()).toMatchObject({
      ready: true,
      user: { uid: "u1", email: "ann@example.com", wallet: null, admin: true },
    });
    // Firebase's server no longer knows that session: nobody is signed in, and the guards send the visitor to /login.
    auth.useSession.getState().setUser(null);
    expect(auth.useSession.getState()).toMatchObject({ ready: true, user: null });
  });

  it("Firebase's answer that it is the same user keeps the session as it was (nothing that shows the user draws again)", async () => {
    const auth = await freshModule();
    const user = { uid: "u1", email: "ann@example.com", wallet: null, admin: false };
    auth.useSession.getState().setUser(user);
    auth.useSession.getState().setUser({ ...user });
    expect(auth.useSession.getState().user).toBe(user);
    auth.useSession.getState().setUser({ ...user, admin: true });
    expect(auth.useSession.getState().user).toEqual({ ...user, admin: true });
  });

  it("an API call made while Firebase loads waits for its ID token instead of going without it", async () => {
    databases([]);
    const auth = await freshModule();
    const { currentIdToken } = await import("@/lib/api");
    sdk.idToken.mockResolvedValue("id-token");
    await auth.startAuth(testConfig(), onLogin);
    expect(await currentIdToken()).toBeNull(); // nothing loads Firebase on /login without a session
    auth.prepareAuth();
    expect(await currentIdToken()).toBe("id-token");
  });

  it("a sign-in loads it, starts it once with the configuration, then signs in", async () => {
    databases([]);
    const auth = await freshModule();
    const config = testConfig();
    await auth.startAuth(config, onLogin);
    auth.prepareAuth();
    await auth.signInWithEmail("a@example.com", "secret-pass");
    await auth.signInWithEmail("a@example.com", "secret-pass");
    expect(sdk.startAuth).toHaveBeenCalledTimes(1);
    expect(sdk.startAuth).toHaveBeenCalledWith(config);
    expect(sdk.signInWithEmail).toHaveBeenCalledWith("a@example.com", "secret-pass");
  });

  it("a browser that may hold a session loads Firebase at start, which then says who is signed in", async () => {
    for (const setUp of [
      () => databases(["firebaseLocalStorageDb"]),
      () => {
        databases([]);
        localStorage.setItem("firebase:authUser:key:[DEFAULT]", "{}");
      },
      () => databases(new Error("SecurityError")),
      () => vi.stubGlobal("indexedDB", {}), // no indexedDB.databases: unsure counts as yes
    ]) {
      setUp();
      sdk.startAuth.mockClear();
      const auth = await freshModule();
      await auth.startAuth(testConfig(), onLogin);
      expect(sdk.startAuth).toHaveBeenCalledTimes(1);
      // Firebase's first answer sets the session; this module does not say 'nobody' first.
      expect(auth.useSession.getState().ready).toBe(false);
      localStorage.clear();
      vi.unstubAllGlobals();
    }
  });

  it("a download that fails says so in a sentence, and the next attempt downloads again", async () => {
    databases([]);
    const auth = await freshModule();
    await auth.startAuth(testConfig(), onLogin);
    sdk.fail = true;
    await expect(auth.signInWithEmail("a@example.com", "secret-pass")).rejects.toThrow(
      "Sign-in could not be loaded: check your connection and try again.",
    );
    sdk.fail = false;
    await auth.signInWithEmail("a@example.com", "secret-pass");
    expect(sdk.signInWithEmail).toHaveBeenCalledTimes(1);
    expect(sdk.loads).toBe(2);
  });

  it("before the configuration has arrived, a sign-in says to reload", async () => {
    const auth = await freshModule();
    await expect(auth.signInWithEmail("a@example.com", "x")).rejects.toThrow("Sign-in is not ready yet. Reload the page.");
  });
});
