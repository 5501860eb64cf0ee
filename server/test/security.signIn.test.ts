/**
 * The security review's sign-in checks (issue 7, item 4; docs/SECURITY.md), beyond what auth.test.ts
 * already refuses (a replayed SIWE message, a nonce never issued, an expired nonce or message,
 * another domain, chain or signer): a message not valid yet, a nonce spent by another wallet or
 * issued by another server, look-alike hosts; unsigned tokens on a server set up for real Firebase;
 * and the admin claim, which only ADMIN_WALLETS gives, and only while it lists the wallet.
 */
import { expect } from "chai";
import { rmSync } from "node:fs";
import { Wallet } from "ethers";
import { and, eq } from "drizzle-orm";
import type { SiweMessage } from "siwe";
import { auditLog, contacts } from "../src/db/schema";
import { walletUid } from "../src/services/auth/walletSessions";
import type { RunningServer } from "../src/index";
import {
  call,
  DASHBOARD_DOMAIN,
  emailUser,
  randomAddress,
  refreshSession,
  siweMessage,
  startTestServer,
  unsignedToken,
  walletUser,
} from "./helpers";
import { expectRefusal } from "./securityHelpers";
import { FIREBASE_PROJECT } from "./stack";
import { migratedDataDir } from "./dataDirs";

/** Claims of a Firebase ID token for `uid` in the test project, valid for an hour. */
function idTokenClaims(uid: string, extra: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: `https://securetoken.google.com/${FIREBASE_PROJECT}`,
    aud: FIREBASE_PROJECT,
    sub: uid,
    user_id: uid,
    auth_time: now,
    iat: now,
    exp: now + 3600,
    firebase: { sign_in_provider: "password", identities: {} },
    ...extra,
  };
}

describe("Security review", () => {
  describe("Sign-In with Ethereum: what auth.test.ts does not already refuse", () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer();
    });
    after(async () => {
      await server.close();
    });

    const nonce = async (s = server) => (await call(s, "POST", "/api/auth/nonce")).body.nonce as string;

    /** The dashboard's message with `nonceValue`, and `fields` changed. */
    const message = (wallet: Wallet, nonceValue: string, fields: Partial<SiweMessage> = {}) =>
      siweMessage(server, wallet, { ...fields, nonce: nonceValue });

    async function signIn(wallet: Wallet, text: string, s = server) {
      return call(s, "POST", "/api/auth/wallet-auth", {
        body: { address: wallet.address, message: text, signature: await wallet.signMessage(text) },
      });
    }

    it("refuses a message that is not valid yet (notBefore ahead), without spending its nonce", async () => {
      const wallet = Wallet.createRandom() as unknown as Wallet;
      const n = await nonce();
      const early = await signIn(wallet, await message(wallet, n, { notBefore: new Date(Date.now() + 10 * 60_000).toISOString() }));
      expectRefusal(early, 401, "Invalid custom token: the sign-in message is not valid yet.");
      // The refusal came before the nonce was spent: the wallet's own, valid message still signs in.
      expect((await signIn(wallet, await message(wallet, n))).status).to.equal(200);
    });

    it("refuses a nonce another wallet has already spent", async () => {
      const first = Wallet.createRandom() as unknown as Wallet;
      const second = Wallet.createRandom() as unknown as Wallet;
      const n = await nonce();
      expect((await signIn(first, await message(first, n))).status).to.equal(200);
      expectRefusal(await signIn(second, await message(second, n)), 401, /already used, has expired, or was not issued here/);
    });

    it("refuses a nonce issued by another server (another database), which that server accepts", async () => {
      const other = await startTestServer();
      try {
        const wallet = Wallet.createRandom() as unknown as Wallet;
        const text = await message(wallet, await nonce(other));
        expectRefusal(await signIn(wallet, text), 401, /not issued here/);
        // The same signed message is good where its nonce came from: only the nonce made the difference.
        expect((await signIn(wallet, text, other)).status).to.equal(200);
      } finally {
        await other.close();
      }
    });

    for (const domain of ["localhost:5173", "127.0.0.1:5174", "127.0.0.1", "evil.example:5173"]) {
      it(`refuses a message for ${domain}: only the dashboard's exact host and port (${DASHBOARD_DOMAIN}) sign in`, async () => {
        const wallet = Wallet.createRandom() as unknown as Wallet;
        expectRefusal(
          await signIn(wallet, await message(wallet, await nonce(), { domain })),
          401,
          `Invalid custom token: the message is for ${domain}, not this dashboard.`,
        );
      });
    }
  });

  describe("unsigned tokens when the server is not configured for the Auth emulator", () => {
    // A real project's settings without real credentials: nothing may be accepted, and nothing
    // here can reach Google (this machine has no internet), so every answer must fail closed.
    const REAL_PROJECT = {
      FIREBASE_AUTH_EMULATOR_HOST: "",
      GOOGLE_APPLICATION_CREDENTIALS: "/nonexistent/usdx-test-service-account.json",
      FIREBASE_WEB_API_KEY: "test-web-api-key",
    };
    let real: RunningServer;
    let emulated: RunningServer | null = null;
    let user: { idToken: string; uid: string };
    const admin = Wallet.createRandom();
    const savedCredentials = process.env.GOOGLE_APPLICATION_CREDENTIALS;

    before(async () => {
      // firebase-admin reads the credentials from the process: make sure none of the developer's are used.
      process.env.GOOGLE_APPLICATION_CREDENTIALS = REAL_PROJECT.GOOGLE_APPLICATION_CREDENTIALS;
      real = await startTestServer({ ...REAL_PROJECT, ADMIN_WALLETS: admin.address });
      user = await emailUser();
    });
    after(async () => {
      await emulated?.close();
      await real.close();
      if (savedCredentials === undefined) delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
      else process.env.GOOGLE_APPLICATION_CREDENTIALS = savedCredentials;
    });

    const PROTECTED: [string, string, unknown?][] = [
      ["GET", "/api/auth/me"],
      ["GET", "/api/contacts"],
      ["POST", "/api/contacts", { name: "Mallory", address: randomAddress() }],
      ["GET", "/api/batch/status"],
      ["GET", "/api/bank/accounts"],
      ["POST", "/api/reward-multiplier", { value: "2", operation: "set" }],
      ["GET", "/api/audit"],
    ];

    it("runs in 'firebase' mode", async () => {
      const health = await call(real, "GET", "/api/health");
      expect(health.body.auth).to.deep.equal({ ok: true, mode: "firebase" });
    });

    it("refuses unsigned tokens on every protected route: well-formed claims, the emulator's own ID token, a forged admin claim", async () => {
      const tokens = {
        "unsigned, valid claims": unsignedToken(idTokenClaims(user.uid)),
        "the emulator's ID token": user.idToken,
        "unsigned, admin claim": unsignedToken(idTokenClaims(user.uid, { admin: true, wallet: admin.address })),
      };
      for (const [method, path, body] of PROTECTED) {
        for (const [what, token] of Object.entries(tokens)) {
          const answer = await call(real, method, path, { token, body });
          expect(answer.status, `${method} ${path} with ${what}`).to.equal(401);
          expectRefusal(answer, 401, "Your session token is not valid: sign in again.");
        }
      }
      expect(await real.services.db.db.select().from(contacts)).to.deep.equal([]);
    });

    it("refuses a token that names Google's signature but is not signed by Google (401, or 503 when Google cannot be asked; never 200)", async () => {
      const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
      const forged = `${part({ alg: "RS256", typ: "JWT", kid: "0123456789abcdef" })}.${part(idTokenClaims(user.uid, { admin: true }))}.${Buffer.from("not a signature").toString("base64url")}`;
      for (const path of ["/api/auth/me", "/api/audit"]) {
        const answer = await call(real, "GET", path, { token: forged });
        expect(answer.status, path).to.be.oneOf([401, 503]);
        expectRefusal(answer, answer.status);
      }
    });

    it("keeps refusing unsigned tokens after another server in the same process turns the emulator on", async () => {
      // createFirebaseAuth sets FIREBASE_AUTH_EMULATOR_HOST for the process, and firebase-admin reads it
      // on every call: without the server's own check, `real` would now accept what `emulated` accepts.
      emulated = await startTestServer({ ADMIN_WALLETS: admin.address });
      // The listed wallet's account must exist at the emulator (it is asked whether the session was revoked).
      await walletUser(emulated, admin as unknown as Wallet);
      const forgedAdmin = unsignedToken(idTokenClaims(walletUid(admin.address), { admin: true, wallet: admin.address }));
      // The control: the emulator trusts anyone who can reach it, so this forged token is good there.
      // That is why emulator mode is for local runs only (docs/SECURITY.md).
      expect((await call(emulated, "GET", "/api/audit", { token: forgedAdmin })).status).to.equal(200);
      for (const [method, path, body] of PROTECTED) {
        expectRefusal(await call(real, method, path, { token: forgedAdmin, body }), 401);
      }
    });

    it("answers a wallet sign-in it cannot complete with 503 JSON, not a 500 or a token", async () => {
      const wallet = Wallet.createRandom();
      const text = await siweMessage(real, wallet);
      const answer = await call(real, "POST", "/api/auth/wallet-auth", {
        body: { address: wallet.address, message: text, signature: await wallet.signMessage(text) },
      });
      expectRefusal(answer, 503, /^Cannot sign you in right now/);
    });
  });

  describe("wallet sign-in gives the admin claim only through ADMIN_WALLETS", () => {
    let server: RunningServer;
    const admin = Wallet.createRandom();
    before(async () => {
      server = await startTestServer({ ADMIN_WALLETS: admin.address });
    });
    after(async () => {
      await server.close();
    });

    it("ignores an admin flag in the sign-in request", async () => {
      const wallet = Wallet.createRandom();
      const text = await siweMessage(server, wallet, { resources: ["urn:usdx:admin"] });
      const answer = await call(server, "POST", "/api/auth/wallet-auth", {
        body: { address: wallet.address, message: text, signature: await wallet.signMessage(text), admin: true, claims: { admin: true } },
      });
      expect(answer.status).to.equal(200);
      expect(answer.body.admin).to.equal(false);
      // The custom token's claims (the emulator's tokens are readable JWTs) carry no admin flag either.
      const claims = JSON.parse(Buffer.from(answer.body.customToken.split(".")[1], "base64url").toString("utf8"));
      expect(claims.claims).to.deep.equal({ wallet: wallet.address });
      const { idToken } = await walletUser(server, admin as unknown as Wallet);
      expect((await call(server, "GET", "/api/audit", { token: idToken })).status, "the listed wallet is admin").to.equal(200);
    });
  });

  describe("a wallet taken off ADMIN_WALLETS loses admin at once (issue 29, item 5)", function () {
    // Each test starts the server two or three times.
    this.timeout(180_000);
    const removed = Wallet.createRandom() as unknown as Wallet;
    const kept = Wallet.createRandom() as unknown as Wallet;
    const both = `${removed.address},${kept.address}`;
    let dir: string;
    let server: RunningServer | null = null;
    before(async () => {
      dir = await migratedDataDir("usdx-admins-");
    });
    /** Stops the running server (if any) and starts one with `env`. */
    const restart = async (env: Record<string, string>): Promise<RunningServer> => {
      const running = server;
      server = null;
      await running?.close();
      server = await startTestServer(env);
      return server;
    };
    afterEach(async () => {
      const running = server;
      server = null;
      await running?.close();
    });
    after(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    /** Firebase dates a revocation in whole seconds: a session revoked in the second it began would survive it. */
    const nextSecond = async () => {
      const second = Math.floor(Date.now() / 1000);
      while (Math.floor(Date.now() / 1000) === second) await new Promise((resolve) => setTimeout(resolve, 50));
    };

    it("asks the running server's list on every admin request, not the claim the token got at sign-in", async () => {
      let api = await restart({ ADMIN_WALLETS: both });
      const { idToken } = await walletUser(api, removed);
      expect((await call(api, "GET", "/api/audit", { token: idToken })).status, "listed: admin").to.equal(200);
      // Another database, so nothing ends the session: only the per-request check stands between it and admin.
      api = await restart({ ADMIN_WALLETS: kept.address });
      expectRefusal(
        await call(api, "GET", "/api/audit", { token: idToken }),
        403,
        "Admin only: sign in with a wallet listed in ADMIN_WALLETS.",
      );
      expectRefusal(await call(api, "GET", "/api/alerts/rules", { token: idToken }), 403);
      const me = await call(api, "GET", "/api/auth/me", { token: idToken });
      expect(me.status).to.equal(200);
      expect(me.body.user).to.deep.include({ wallet: removed.address, admin: false });
    });

    it("ends its sessions when the server starts without it: the old token and its refreshes are refused, a listed admin's are not", async () => {
      let api = await restart({ ADMIN_WALLETS: both, PGLITE_DIR: dir });
      const gone = await walletUser(api, removed);
      const stays = await walletUser(api, kept);
      for (const { idToken } of [gone, stays]) expect((await call(api, "GET", "/api/audit", { token: idToken })).status).to.equal(200);
      await nextSecond();

      api = await restart({ ADMIN_WALLETS: kept.address, PGLITE_DIR: dir });
      const ended = "Your session was ended by the server (signed out everywhere): sign in again.";
      expectRefusal(await call(api, "GET", "/api/audit", { token: gone.idToken }), 401, ended);
      expectRefusal(await call(api, "GET", "/api/auth/me", { token: gone.idToken }), 401, ended);
      // The browser's next step, a refresh: refused by the emulator, or its token refused here.
      const refreshed = await refreshSession(gone.refreshToken);
      if (refreshed.idToken) expectRefusal(await call(api, "GET", "/api/auth/me", { token: refreshed.idToken }), 401, ended);
      else expect(refreshed.error).to.be.a("string");
      // The admin still listed keeps the session, and its refresh works.
      expect((await call(api, "GET", "/api/audit", { token: stays.idToken })).status).to.equal(200);
      const keptRefresh = await refreshSession(stays.refreshToken);
      expect((await call(api, "GET", "/api/audit", { token: keptRefresh.idToken })).status, keptRefresh.error).to.equal(200);
      // The audit log says so, once: a later start finds nothing more to end.
      const entries = () =>
        api.services.db.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, "admin-removed"), eq(auditLog.wallet, removed.address)));
      expect(await entries()).to.have.length(1);
      api = await restart({ ADMIN_WALLETS: kept.address, PGLITE_DIR: dir });
      expect(await entries()).to.have.length(1);

      // Signing in again is allowed, as the plain wallet it now is.
      const again = await walletUser(api, removed);
      expect((await call(api, "GET", "/api/auth/me", { token: again.idToken })).body.user).to.deep.include({ admin: false });
      expectRefusal(await call(api, "GET", "/api/audit", { token: again.idToken }), 403);
    });
  });
});
