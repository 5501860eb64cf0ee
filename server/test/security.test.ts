/**
 * The security review's tests (issue 7, item 4; docs/SECURITY.md). They cover what the route suites
 * do not already: auth.test.ts refuses a replayed SIWE message, a nonce never issued, an expired
 * nonce or message, another domain or chain, another signer; contacts/bank/batchJobs tests refuse
 * another user's rows route by route; basics.test.ts checks helmet and CORS on one answer each.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { eq, inArray } from "drizzle-orm";
import { getAddress, hexlify, randomBytes, Wallet } from "ethers";
import type { SiweMessage } from "siwe";
import { bankAccounts, bankWallets, batchChunks, batchJobs, contacts, deposits } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { call, DASHBOARD_DOMAIN, DASHBOARD_ORIGIN, emailUser, siweMessage, stack, startTestServer, unsignedToken, walletUser } from "./helpers";
import { FIREBASE_PROJECT } from "./stack";

const randomAddress = () => getAddress(hexlify(randomBytes(20)));

/** Every refusal is the API's JSON error, never a page or an empty body, and hands out nothing. */
function expectRefusal(answer: { status: number; body: any; headers: Headers }, status: number, error?: RegExp | string): void {
  expect(answer.status, JSON.stringify(answer.body)).to.equal(status);
  expect(answer.headers.get("content-type")).to.match(/^application\/json/);
  expect(answer.body.success).to.equal(false);
  expect(answer.body.error).to.be.a("string").and.not.equal("");
  expect(answer.body).not.to.have.property("customToken");
  if (typeof error === "string") expect(answer.body.error).to.equal(error);
  else if (error) expect(answer.body.error).to.match(error);
}

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
    const message = (wallet: Wallet, nonceValue: string, fields: Partial<SiweMessage> = {}) => siweMessage(server, wallet, { ...fields, nonce: nonceValue });

    async function signIn(wallet: Wallet, text: string, s = server) {
      return call(s, "POST", "/api/auth/wallet-auth", { body: { address: wallet.address, message: text, signature: await wallet.signMessage(text) } });
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
        expectRefusal(await signIn(wallet, await message(wallet, await nonce(), { domain })), 401, `Invalid custom token: the message is for ${domain}, not this dashboard.`);
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
      const forgedAdmin = unsignedToken(idTokenClaims(user.uid, { admin: true }));
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
      const answer = await call(real, "POST", "/api/auth/wallet-auth", { body: { address: wallet.address, message: text, signature: await wallet.signMessage(text) } });
      expectRefusal(answer, 503, /^Cannot sign you in right now/);
    });
  });

  describe("one user can never read or change another's data", () => {
    let server: RunningServer;
    let owner: { idToken: string; uid: string };
    let intruder: { idToken: string; uid: string };
    const mine: { contact?: number; account?: number; wallet?: number; deposit?: number; job?: string } = {};
    let intruderAccount: number;

    before(async () => {
      // Accounts verify at once; deposits stay pending for an hour, so nothing is minted.
      server = await startTestServer({ BANK_VERIFY_MS: "0", BANK_PROCESSING_MS: "3600000" });
      owner = await emailUser();
      intruder = await emailUser();
      const as = (user: { idToken: string }) => (method: string, path: string, body?: unknown) => call(server, method, path, { token: user.idToken, body });

      for (const [user, save] of [
        [owner, (id: number) => (mine.account = id)],
        [intruder, (id: number) => (intruderAccount = id)],
      ] as const) {
        const account = await as(user)("POST", "/api/bank/accounts", { name: "Checking", type: "checking", accountNumber: "000123456789", routingNumber: "021000021" });
        expect(account.status, JSON.stringify(account.body)).to.equal(201);
        save(account.body.account.id);
        const wallet = await as(user)("POST", "/api/bank/wallets", { name: "Main", address: randomAddress() });
        expect(wallet.status, JSON.stringify(wallet.body)).to.equal(201);
        if (user === owner) mine.wallet = wallet.body.wallet.id;
        // BANK_VERIFY_MS=0: the account is verified when it is next read.
        const accounts = await as(user)("GET", "/api/bank/accounts");
        expect(accounts.body.accounts[0].status).to.equal("verified");
      }
      const contact = await as(owner)("POST", "/api/contacts", { name: "Secret", address: randomAddress(), notes: "private" });
      expect(contact.status).to.equal(201);
      mine.contact = contact.body.contact.id;
      const deposit = await as(owner)("POST", "/api/bank/deposits", { bankAccountId: mine.account, amount: "5" });
      expect(deposit.status, JSON.stringify(deposit.body)).to.equal(201);
      mine.deposit = deposit.body.deposit.id;
      const job = await as(owner)("POST", "/api/batch/execute", { recipients: [{ name: "Payee", address: randomAddress(), amount: "1" }] });
      expect(job.status, JSON.stringify(job.body)).to.equal(201);
      mine.job = job.body.jobId;
    });
    after(async () => {
      await server.close();
    });

    /** Everything the database holds for the owner: it must come out of every test exactly as it went in. */
    async function ownersRows() {
      const db = server.services.db.db;
      const jobs = await db.select().from(batchJobs).where(eq(batchJobs.uid, owner.uid));
      return {
        contacts: await db.select().from(contacts).where(eq(contacts.uid, owner.uid)),
        accounts: await db.select().from(bankAccounts).where(eq(bankAccounts.uid, owner.uid)),
        wallets: await db.select().from(bankWallets).where(eq(bankWallets.uid, owner.uid)),
        deposits: await db.select().from(deposits).where(eq(deposits.uid, owner.uid)),
        jobs,
        chunks: await db.select().from(batchChunks).where(inArray(batchChunks.jobId, jobs.map((j) => j.id))),
      };
    }

    /** An answer with `id` written as <id>, so answers about two different ids can be compared. */
    const withoutId = (body: unknown, id: string | number) => JSON.parse(JSON.stringify(body).replace(new RegExp(`\\b${id}\\b`, "g"), "<id>"));

    it("answers the owner's ids on every route exactly as ids that do not exist (404), and changes nothing", async () => {
      const MISSING_SERIAL = 2_147_483_647;
      const MISSING_JOB = "00000000-0000-4000-8000-000000000000";
      const tx = { chunkIndex: 0, txHash: `0x${"ab".repeat(32)}` };
      const cases: { route: string; method: string; path: (id: any) => string; owned: number | string; missing: number | string; body?: (id: any) => unknown }[] = [
        { route: "edit a contact", method: "PATCH", path: (id) => `/api/contacts/${id}`, owned: mine.contact!, missing: MISSING_SERIAL, body: () => ({ name: "Mine now" }) },
        { route: "delete a contact", method: "DELETE", path: (id) => `/api/contacts/${id}`, owned: mine.contact!, missing: MISSING_SERIAL },
        { route: "remove a bank account", method: "DELETE", path: (id) => `/api/bank/accounts/${id}`, owned: mine.account!, missing: MISSING_SERIAL },
        { route: "make a wallet primary", method: "POST", path: (id) => `/api/bank/wallets/${id}/primary`, owned: mine.wallet!, missing: MISSING_SERIAL },
        { route: "remove a wallet", method: "DELETE", path: (id) => `/api/bank/wallets/${id}`, owned: mine.wallet!, missing: MISSING_SERIAL },
        { route: "read a deposit", method: "GET", path: (id) => `/api/bank/deposits/${id}`, owned: mine.deposit!, missing: MISSING_SERIAL },
        {
          route: "deposit from another's bank account",
          method: "POST",
          path: () => "/api/bank/deposits",
          owned: mine.account!,
          missing: MISSING_SERIAL,
          body: (id) => ({ bankAccountId: id, amount: "5" }),
        },
        {
          route: "deposit into another's wallet",
          method: "POST",
          path: () => "/api/bank/deposits",
          owned: mine.wallet!,
          missing: MISSING_SERIAL,
          body: (id) => ({ bankAccountId: intruderAccount, walletId: id, amount: "5" }),
        },
        { route: "read a batch job", method: "GET", path: (id) => `/api/batch/${id}`, owned: mine.job!, missing: MISSING_JOB },
        { route: "read a batch report (recipients)", method: "GET", path: (id) => `/api/batch/${id}?offset=0&limit=10`, owned: mine.job!, missing: MISSING_JOB },
        { route: "report a batch transaction", method: "POST", path: (id) => `/api/batch/${id}/transactions`, owned: mine.job!, missing: MISSING_JOB, body: () => tx },
      ];
      const before = await ownersRows();
      const depositsBefore = (await server.services.db.db.select().from(deposits)).length;
      for (const c of cases) {
        const theirs = await call(server, c.method, c.path(c.owned), { token: intruder.idToken, body: c.body?.(c.owned) });
        const nobodys = await call(server, c.method, c.path(c.missing), { token: intruder.idToken, body: c.body?.(c.missing) });
        expectRefusal(theirs, 404);
        expect(withoutId(theirs.body, c.owned), c.route).to.deep.equal(withoutId(nobodys.body, c.missing));
      }
      expect(await ownersRows()).to.deep.equal(before);
      expect((await server.services.db.db.select().from(deposits)).length, "no deposit was created").to.equal(depositsBefore);
      // And the owner still sees everything as it was.
      expect((await call(server, "GET", `/api/batch/${mine.job}`, { token: owner.idToken })).status).to.equal(200);
      expect((await call(server, "GET", `/api/bank/deposits/${mine.deposit}`, { token: owner.idToken })).status).to.equal(200);
    });

    it("lists, exports and reports only the intruder's own rows", async () => {
      const get = (path: string) => call(server, "GET", path, { token: intruder.idToken });
      expect((await get("/api/contacts")).body.contacts).to.deep.equal([]);
      expect((await get("/api/contacts/export")).body).to.match(/^Name,Address,Notes(\r\n)?$/);
      expect((await get("/api/bank/accounts")).body.accounts.map((a: any) => a.id)).to.deep.equal([intruderAccount]);
      expect((await get("/api/bank/wallets")).body.wallets.map((w: any) => w.id)).not.to.include(mine.wallet);
      expect((await get("/api/bank/deposits")).body.deposits).to.deep.equal([]);
      expect((await get("/api/batch")).body.jobs).to.deep.equal([]);
      expect((await get("/api/batch/status")).body).to.deep.equal({ success: true, data: null });
      // The owner's own status is their job: the empty answers above are not an empty database.
      expect((await call(server, "GET", "/api/batch/status", { token: owner.idToken })).body.data.jobId).to.equal(mine.job);
    });

    it("files what a user creates under their own uid, whatever uid the body claims", async () => {
      const claims = { uid: owner.uid, userId: owner.uid, owner: owner.uid };
      const post = (path: string, body: object) => call(server, "POST", path, { token: intruder.idToken, body: { ...body, ...claims } });
      const before = await ownersRows();
      const contact = await post("/api/contacts", { name: "Planted", address: randomAddress() });
      const account = await post("/api/bank/accounts", { name: "Planted", type: "savings", accountNumber: "11112222", routingNumber: "021000021" });
      const wallet = await post("/api/bank/wallets", { name: "Planted", address: randomAddress() });
      const job = await post("/api/batch/execute", { recipients: [{ address: randomAddress(), amount: "1" }] });
      for (const answer of [contact, account, wallet, job]) expect(answer.status, JSON.stringify(answer.body)).to.equal(201);

      const db = server.services.db.db;
      expect((await db.select().from(contacts).where(eq(contacts.id, contact.body.contact.id)))[0].uid).to.equal(intruder.uid);
      expect((await db.select().from(bankAccounts).where(eq(bankAccounts.id, account.body.account.id)))[0].uid).to.equal(intruder.uid);
      expect((await db.select().from(bankWallets).where(eq(bankWallets.id, wallet.body.wallet.id)))[0].uid).to.equal(intruder.uid);
      expect((await db.select().from(batchJobs).where(eq(batchJobs.id, job.body.jobId)))[0].uid).to.equal(intruder.uid);
      expect(await ownersRows()).to.deep.equal(before);
    });
  });

  describe("rate limits", () => {
    const csv = `name,address\nBob,${randomAddress()}\n`;

    it("answers contact imports past the CSV limit with 429 JSON, its policy in the headers", async () => {
      const limited = await startTestServer({ RATE_LIMIT_CSV_PER_MINUTE: "2" });
      try {
        const { idToken } = await emailUser();
        const send = () => call(limited, "POST", "/api/contacts/import", { token: idToken, body: { csvData: csv } });
        expect((await send()).status).to.equal(200);
        expect((await send()).status).to.equal(200);
        const third = await send();
        expectRefusal(third, 429, "Too many CSV uploads from this address: wait a minute and try again.");
        expect(third.headers.get("ratelimit-policy")).to.match(/q=2\b/);
        expect(third.headers.get("x-content-type-options"), "helmet runs before the limiter").to.equal("nosniff");
      } finally {
        await limited.close();
      }
    });

    it("counts each client behind the dashboard's proxy apart, by the address the proxy appends", async () => {
      const limited = await startTestServer({ RATE_LIMIT_AUTH_PER_MINUTE: "2" });
      try {
        // What the Vite proxy (xfwd) sends: whatever the browser claimed, then the address it saw.
        const nonce = (forwardedFor: string) => call(limited, "POST", "/api/auth/nonce", { headers: { "x-forwarded-for": forwardedFor } });
        expect((await nonce("198.51.100.7")).status).to.equal(200);
        expect((await nonce("198.51.100.7")).status).to.equal(200);
        expectRefusal(await nonce("198.51.100.7"), 429, "Too many sign-in requests from this address: wait a minute and try again.");
        // A client cannot start afresh by claiming another address in front of its real one.
        expectRefusal(await nonce("203.0.113.9, 198.51.100.7"), 429);
        // Another client behind the same proxy has its own budget: one user cannot lock everyone out.
        expect((await nonce("198.51.100.8")).status).to.equal(200);
      } finally {
        await limited.close();
      }
    });

    it("ignores X-Forwarded-For entirely with TRUST_PROXY=off", async () => {
      const limited = await startTestServer({ RATE_LIMIT_AUTH_PER_MINUTE: "2", TRUST_PROXY: "off" });
      try {
        const nonce = (forwardedFor: string) => call(limited, "POST", "/api/auth/nonce", { headers: { "x-forwarded-for": forwardedFor } });
        expect((await nonce("198.51.100.7")).status).to.equal(200);
        expect((await nonce("198.51.100.8")).status).to.equal(200);
        expectRefusal(await nonce("198.51.100.9"), 429);
      } finally {
        await limited.close();
      }
    });
  });

  describe("security headers and CORS on API answers", () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer();
    });
    after(async () => {
      await server.close();
    });

    it("sends helmet's headers on answers of every kind: 200, 400, 401, 404", async () => {
      const answers = {
        200: await call(server, "GET", "/api/health"),
        400: await call(server, "POST", "/api/auth/wallet-auth", { body: "{" }),
        401: await call(server, "GET", "/api/contacts", { token: "forged" }),
        404: await call(server, "GET", "/api/no-such-thing"),
      };
      for (const [status, answer] of Object.entries(answers)) {
        expect(answer.status).to.equal(Number(status));
        const h = (name: string) => answer.headers.get(name);
        expect(h("x-content-type-options"), status).to.equal("nosniff");
        expect(h("x-frame-options"), status).to.equal("DENY");
        expect(h("content-security-policy"), status).to.contain("frame-ancestors 'none'").and.contain("default-src 'self'").and.contain("object-src 'none'");
        expect(h("strict-transport-security"), status).to.match(/^max-age=\d{8,}; includeSubDomains$/);
        expect(h("referrer-policy"), status).to.equal("no-referrer");
        expect(h("cross-origin-resource-policy"), status).to.equal("same-origin");
        expect(h("x-powered-by"), status).to.equal(null);
        expect(h("content-type"), status).to.match(/^application\/json/);
      }
    });

    it("answers a preflight from the dashboard's origin, and nobody else's", async () => {
      const preflight = (origin: string) =>
        call(server, "OPTIONS", "/api/contacts/1", {
          headers: { origin, "access-control-request-method": "DELETE", "access-control-request-headers": "authorization,content-type" },
        });
      const ours = await preflight(DASHBOARD_ORIGIN);
      expect(ours.status).to.equal(204);
      expect(ours.headers.get("access-control-allow-origin")).to.equal(DASHBOARD_ORIGIN);
      expect(ours.headers.get("access-control-allow-methods")).to.contain("DELETE");
      expect(ours.headers.get("access-control-allow-headers")).to.contain("authorization");
      // Look-alikes: a suffix, a prefix, another port, another scheme, a sandboxed frame's "null".
      for (const origin of ["https://evil.example", `${DASHBOARD_ORIGIN}.evil.example`, "http://127.0.0.1:51730", "https://127.0.0.1:5173", "null"]) {
        const theirs = await preflight(origin);
        expect(theirs.headers.get("access-control-allow-origin"), origin).to.equal(null);
      }
    });

    it("gives another origin no Access-Control-Allow-Origin on a signed-in answer, and says it varies by Origin", async () => {
      const { idToken } = await emailUser();
      const evil = await call(server, "GET", "/api/contacts", { token: idToken, headers: { origin: "https://evil.example" } });
      expect(evil.status, "CORS is the browser's check; the server still answers the token").to.equal(200);
      expect(evil.headers.get("access-control-allow-origin")).to.equal(null);
      const ours = await call(server, "GET", "/api/contacts", { token: idToken, headers: { origin: DASHBOARD_ORIGIN } });
      expect(ours.headers.get("access-control-allow-origin")).to.equal(DASHBOARD_ORIGIN);
      // A shared cache must not hand the dashboard's CORS answer to another origin, or the reverse.
      expect(ours.headers.get("vary")).to.match(/\bOrigin\b/);
    });
  });

  describe("secrets in the server's settings", () => {
    it("never shows the RPC URL's key in /api/health, even when the provider refuses it", async () => {
      // A stand-in for a node provider whose URL carries the key (https://…/v3/<key>): it forwards to
      // the test node, then answers 401 as a provider does for a revoked or rate-limited key.
      const KEY = "0123456789abcdefSECRETKEY";
      let refuse = false;
      const provider = http.createServer((req, res) => {
        let body = "";
        req.on("data", (chunk) => (body += chunk));
        req.on("end", async () => {
          if (refuse) {
            res.writeHead(401, { "content-type": "text/plain" }).end("invalid project id");
            return;
          }
          const answer = await fetch(stack().rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
          res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
        });
      });
      await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
      const origin = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
      const server = await startTestServer({ RPC_URL: `${origin}/v3/${KEY}` });
      try {
        expect((await call(server, "GET", "/api/health")).status).to.equal(200);
        refuse = true;
        let health = await call(server, "GET", "/api/health");
        for (let i = 0; i < 100 && health.body.indexer.lastError === null; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          health = await call(server, "GET", "/api/health");
        }
        expect(health.status).to.equal(503);
        expect(health.body.chain.error).to.equal(`the RPC node at ${origin} is not answering`);
        // The loops' own errors are there (the test is not passing on an empty answer)...
        expect(health.body.indexer.lastError).to.be.a("string").and.not.equal("");
        // ...and the key is nowhere in them, whoever wrote them (ethers puts the URL in its errors).
        expect(JSON.stringify(health.body)).not.to.contain(KEY);
      } finally {
        await server.close();
        provider.closeAllConnections();
        await new Promise((resolve) => provider.close(resolve));
      }
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
});
