/**
 * Operators' alerts through the API (issue 18): only the server's admins manage rules; bad input is
 * a 400 sentence and stores nothing; webhook URLs are http(s) without credentials, and private or
 * loopback addresses are refused unless ALERT_ALLOW_PRIVATE_URLS allows them, at save and at each
 * attempt; off the local chain they must be https; 'Send test' answers with its attempt and logs it; the limits hold. Deliveries of real
 * events, retries, restarts and reorganisations are in alerts.test.ts.
 */
import { expect } from "chai";
import { Wallet } from "ethers";
import type { AlertDelivery } from "@common/api/alerts";
import { alertDeliveries, alertRules } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { loadConfig } from "../src/config";
import { AlertRules } from "../src/services/alerts/rules";
import { postWebhook } from "../src/services/alerts/webhook";
import { refusedAddress, resolveChecked } from "../src/services/alerts/urlCheck";
import { AlertReceiver, signedBy } from "./alertReceiver";
import { call, emailUser, startTestServer, unsignedToken, walletUser } from "./helpers";

describe("Operators' alerts: the API", function () {
  this.timeout(60_000);
  const adminWallet = Wallet.createRandom() as unknown as Wallet;
  const secondAdmin = Wallet.createRandom() as unknown as Wallet;
  let server: RunningServer;
  let receiver: AlertReceiver;
  let admin: string;

  before(async () => {
    receiver = await AlertReceiver.start();
    server = await startTestServer({
      ADMIN_WALLETS: `${adminWallet.address},${secondAdmin.address}`,
      ALERT_MAX_RULES: "4",
      ALERT_TESTS_PER_MINUTE: "5",
    });
    admin = (await walletUser(server, adminWallet)).idToken;
  });
  afterEach(async () => {
    await server.services.db.db.delete(alertRules);
  });
  after(async () => {
    await server?.close();
    await receiver?.stop();
  });

  const rules = () => server.services.db.db.select().from(alertRules);
  const add = (body: unknown, as = admin) => call(server, "POST", "/api/alerts/rules", { token: as, body });

  it("adds, lists, turns off and on, gives a new secret and deletes a rule; the secret is answered only when it is made", async () => {
    const made = await add({ kind: "mint", threshold: "10000.5", webhookUrl: `${receiver.url}/a` });
    expect(made.status).to.equal(201);
    expect(made.headers.get("cache-control")).to.equal("no-store");
    const { rule, secret } = made.body;
    expect(secret).to.match(/^whsec_[0-9a-f]{64}$/);
    expect(rule).to.include({
      kind: "mint",
      threshold: "10000.5",
      webhookUrl: `${receiver.url}/a`,
      enabled: true,
      secretHint: `…${secret.slice(-4)}`,
      createdBy: `wallet:${adminWallet.address.toLowerCase()}`,
    });
    const listed = await call(server, "GET", "/api/alerts/rules", { token: admin });
    expect(listed.body.rules).to.deep.equal([rule]);
    expect(JSON.stringify(listed.body)).not.to.include(secret);

    const off = await call(server, "PATCH", `/api/alerts/rules/${rule.id}`, { token: admin, body: { enabled: false } });
    expect(off.body.rule.enabled).to.equal(false);
    const on = await call(server, "PATCH", `/api/alerts/rules/${rule.id}`, { token: admin, body: { enabled: true } });
    expect(on.body.rule.enabled).to.equal(true);

    const rotated = await call(server, "POST", `/api/alerts/rules/${rule.id}/rotate-secret`, { token: admin });
    expect(rotated.body.secret)
      .to.match(/^whsec_/)
      .and.not.equal(secret);
    const test = await call(server, "POST", `/api/alerts/rules/${rule.id}/test`, { token: admin });
    expect(signedBy(receiver.at("/a")[0], rotated.body.secret)).to.equal(true);
    expect(signedBy(receiver.at("/a")[0], secret)).to.equal(false);
    expect(test.body.delivery.status).to.equal("delivered");

    expect((await call(server, "DELETE", `/api/alerts/rules/${rule.id}`, { token: admin })).body).to.deep.equal({
      success: true,
      id: rule.id,
    });
    expect(await rules()).to.deep.equal([]);
    expect(await server.services.db.db.select().from(alertDeliveries)).to.deep.equal([]);
    for (const [method, suffix, body] of [
      ["PATCH", "", { enabled: false }],
      ["DELETE", "", undefined],
      ["POST", "/test", undefined],
      ["POST", "/rotate-secret", undefined],
    ] as const) {
      const gone = await call(server, method, `/api/alerts/rules/${rule.id}${suffix}`, { token: admin, body });
      expect(gone.status, `${method} ${suffix}`).to.equal(404);
      expect(gone.body.error).to.equal("Alert rule not found: it may have been deleted.");
    }
  });

  it("'Send test' posts one signed test delivery now and answers with its attempt, which the log keeps: a 200, a 500 and no listener", async () => {
    receiver.answer = (_n, p) => (p === "/says-no" ? 500 : 200);
    const ok = (await add({ kind: "pause", webhookUrl: `${receiver.url}/ok` })).body;
    const no = (await add({ kind: "pause", webhookUrl: `${receiver.url}/says-no` })).body;
    const nobody = (await add({ kind: "pause", webhookUrl: "http://127.0.0.1:9/hook" })).body;

    const sent = (await call(server, "POST", `/api/alerts/rules/${ok.rule.id}/test`, { token: admin })).body.delivery;
    expect(sent).to.include({ ruleId: ok.rule.id, kind: "pause", test: true, event: null, status: "delivered", attemptCount: 1 });
    expect(sent.attempts).to.have.length(1);
    expect(sent.attempts[0]).to.include({ statusCode: 200, error: null, excerpt: "received" });
    const [got] = receiver.at("/ok");
    expect(signedBy(got, ok.secret)).to.equal(true);
    expect(got.body).to.include({ test: true, event: null, chainId: 31337, deliveryId: sent.deliveryId });
    expect(got.body.rule).to.deep.equal({ id: ok.rule.id, kind: "pause" });

    const refused = (await call(server, "POST", `/api/alerts/rules/${no.rule.id}/test`, { token: admin })).body.delivery;
    expect(refused).to.include({ status: "failed", note: "A test is sent once: it is not retried." });
    expect(refused.attempts[0]).to.include({ statusCode: 500, excerpt: "receiver says no (500)" });
    const unreachable = (await call(server, "POST", `/api/alerts/rules/${nobody.rule.id}/test`, { token: admin })).body.delivery;
    expect(unreachable.attempts[0]).to.include({ statusCode: null, error: "connection refused: nothing listens at that address and port" });

    const log = (await call(server, "GET", "/api/alerts/deliveries", { token: admin })).body.deliveries;
    expect(log.map((d: AlertDelivery) => d.id)).to.deep.equal([unreachable.id, refused.id, sent.id]);
    expect(log[2]).to.deep.equal(sent);
    const page = (await call(server, "GET", `/api/alerts/deliveries?limit=1&before=${refused.id}`, { token: admin })).body.deliveries;
    expect(page.map((d: AlertDelivery) => d.id)).to.deep.equal([sent.id]);
    const one = (await call(server, "GET", `/api/alerts/deliveries?ruleId=${no.rule.id}`, { token: admin })).body.deliveries;
    expect(one.map((d: AlertDelivery) => d.id)).to.deep.equal([refused.id]);
    receiver.answer = () => 200;
  });

  it("is for the server's admins: signed out 401, a signed-in user or a wallet not in ADMIN_WALLETS 403, and nothing changes", async () => {
    const rule = (await add({ kind: "upgrade", webhookUrl: `${receiver.url}/x` })).body.rule;
    const user = (await emailUser()).idToken;
    const otherWallet = (await walletUser(server)).idToken;
    const requests = [
      ["GET", "/api/alerts/rules", undefined],
      ["POST", "/api/alerts/rules", { kind: "mint", webhookUrl: `${receiver.url}/y` }],
      ["PATCH", `/api/alerts/rules/${rule.id}`, { enabled: false }],
      ["DELETE", `/api/alerts/rules/${rule.id}`, undefined],
      ["POST", `/api/alerts/rules/${rule.id}/rotate-secret`, undefined],
      ["POST", `/api/alerts/rules/${rule.id}/test`, undefined],
      ["GET", "/api/alerts/deliveries", undefined],
    ] as const;
    const before = await rules();
    for (const [method, path, body] of requests) {
      expect((await call(server, method, path, { body })).status, `${method} ${path} signed out`).to.equal(401);
      for (const token of [user, otherWallet, unsignedToken({ admin: true })]) {
        const answer = await call(server, method, path, { token, body });
        expect(answer.status, `${method} ${path}`).to.be.oneOf([401, 403]);
      }
      const answer = await call(server, method, path, { token: user, body });
      expect(answer.body.error).to.equal("Admin only: sign in with a wallet listed in ADMIN_WALLETS.");
    }
    expect(await rules()).to.deep.equal(before);
    expect(receiver.at("/x")).to.deep.equal([]);
  });

  const badBodies: [string, unknown, RegExp][] = [
    [
      "an unknown kind",
      { kind: "transfer", webhookUrl: "http://127.0.0.1:9/" },
      /kind: the kind must be one of mint, burn, role, pause, upgrade, multiplier, blocklist/,
    ],
    ["no URL", { kind: "mint" }, /webhookUrl: a webhook URL is needed/],
    [
      "a negative amount",
      { kind: "mint", threshold: "-5", webhookUrl: "http://127.0.0.1:9/" },
      /^Invalid amount: '-5' is not a plain decimal amount .* Enter a number such as 10000, or leave it empty\.$/,
    ],
    ["an exponent", { kind: "burn", threshold: "1e6", webhookUrl: "http://127.0.0.1:9/" }, /^Invalid amount: '1e6' is not a plain decimal/],
    [
      "19 decimals",
      { kind: "multiplier", threshold: "0.0000000000000000001", webhookUrl: "http://127.0.0.1:9/" },
      /^Invalid step: .* has 19 decimals/,
    ],
    [
      "a threshold where none applies",
      { kind: "pause", threshold: "5", webhookUrl: "http://127.0.0.1:9/" },
      /^A 'Pause or unpause' rule takes no threshold: leave it empty\.$/,
    ],
    ["a number as the threshold", { kind: "mint", threshold: 5, webhookUrl: "http://127.0.0.1:9/" }, /threshold: /],
    [
      "a step percentage with a sign",
      { kind: "multiplier", stepPercent: "1%", webhookUrl: "http://127.0.0.1:9/" },
      /^Invalid step percentage: '1%' is not a percentage from 0 to 1000 with at most two decimals\. Enter a number such as 1 or 0\.5, or leave it empty\.$/,
    ],
    [
      "a step percentage where none applies",
      { kind: "mint", stepPercent: "1", webhookUrl: "http://127.0.0.1:9/" },
      /^A 'Mint above an amount' rule takes no step percentage: leave it empty\.$/,
    ],
    ["not a URL", { kind: "mint", webhookUrl: "hooks dot example" }, /^Invalid webhook URL: 'hooks dot example' is not a URL/],
    [
      "ftp",
      { kind: "mint", webhookUrl: "ftp://127.0.0.1/hook" },
      /^Invalid webhook URL: The webhook URL must start with http:\/\/ or https:\/\/, not ftp:\/\/\.$/,
    ],
    ["javascript:", { kind: "mint", webhookUrl: "javascript:alert(1)" }, /must start with http:\/\/ or https:\/\//],
    ["file:", { kind: "mint", webhookUrl: "file:///etc/passwd" }, /must start with http:\/\/ or https:\/\//],
    ["credentials", { kind: "mint", webhookUrl: "http://user:pass@127.0.0.1:9/" }, /may not carry a user name or password/],
    [
      "a URL of 3,000 characters",
      { kind: "mint", webhookUrl: `http://127.0.0.1/${"a".repeat(3000)}` },
      /webhookUrl: must be at most 2048 characters/,
    ],
    ["an enabled flag as text", { enabled: "yes" }, /enabled must be true or false/],
  ];
  for (const [what, body, error] of badBodies) {
    it(`answers 400 for ${what}, storing nothing`, async () => {
      const patch = "enabled" in (body as object);
      const target = patch ? (await add({ kind: "mint", webhookUrl: `${receiver.url}/p` })).body.rule : null;
      const before = await rules();
      const answer = target ? await call(server, "PATCH", `/api/alerts/rules/${target.id}`, { token: admin, body }) : await add(body);
      expect(answer.status).to.equal(400);
      expect(answer.body.error).to.match(error);
      expect(await rules()).to.deep.equal(before);
    });
  }

  it("keeps at most ALERT_MAX_RULES rules (409), and 'Send test' at most ALERT_TESTS_PER_MINUTE a minute per admin (429)", async () => {
    for (let i = 0; i < 4; i++) expect((await add({ kind: "role", webhookUrl: `${receiver.url}/limit` })).status).to.equal(201);
    const over = await add({ kind: "role", webhookUrl: `${receiver.url}/limit` });
    expect(over.status).to.equal(409);
    expect(over.body.error).to.equal("There are already 4 alert rules, as many as this server keeps (ALERT_MAX_RULES): delete one first.");
    const [rule] = await rules();
    const statuses: number[] = [];
    // Another admin's budget: this one's was spent by the tests above.
    const second = (await walletUser(server, secondAdmin)).idToken;
    for (let i = 0; i < 6; i++) statuses.push((await call(server, "POST", `/api/alerts/rules/${rule.id}/test`, { token: second })).status);
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429]);
  });
});

describe("Operators' alerts: webhook addresses", function () {
  this.timeout(60_000);
  const adminWallet = Wallet.createRandom() as unknown as Wallet;
  let server: RunningServer;
  let admin: string;

  before(async () => {
    server = await startTestServer({ ADMIN_WALLETS: adminWallet.address, ALERT_ALLOW_PRIVATE_URLS: "false" });
    admin = (await walletUser(server, adminWallet)).idToken;
  });
  after(async () => {
    await server?.close();
  });

  const refused: [string, RegExp][] = [
    [
      "http://127.0.0.1:8080/hook",
      /^Invalid webhook URL: Refused: 127\.0\.0\.1 is a loopback address; webhooks may only reach public addresses \(a receiver on this machine or network needs ALERT_ALLOW_PRIVATE_URLS=true on the server\)\.$/,
    ],
    ["http://localhost/hook", /Refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/],
    ["http://2130706433/", /127\.0\.0\.1 is a loopback address/],
    ["http://0x7f.0.0.1/", /127\.0\.0\.1 is a loopback address/],
    ["http://10.1.2.3/", /a private network address/],
    ["http://172.20.0.1/", /a private network address/],
    ["https://192.168.1.10/", /a private network address/],
    ["http://169.254.169.254/latest/meta-data/", /a link-local address \(where cloud metadata services answer\)/],
    ["http://100.64.0.1/", /a carrier-grade NAT address/],
    ["http://0.0.0.0:3001/", /the unspecified address/],
    ["http://224.0.0.1/", /a multicast address/],
    ["http://[::1]/", /::1 is a loopback address/],
    ["http://[fd00::1]/", /a private \(unique local\) IPv6 address/],
    ["http://[fe80::1]/", /a link-local address/],
    ["http://[::ffff:127.0.0.1]/", /a loopback address/],
    ["http://[::ffff:a00:1]/", /a private network address/],
    ["http://[::7f00:1]/", /a special-purpose address/],
  ];
  for (const [url, error] of refused) {
    it(`refuses ${url} when private addresses are not allowed`, async () => {
      const answer = await call(server, "POST", "/api/alerts/rules", { token: admin, body: { kind: "mint", webhookUrl: url } });
      expect(answer.status).to.equal(400);
      expect(answer.body.error).to.match(error);
      expect(await server.services.db.db.select().from(alertRules)).to.deep.equal([]);
    });
  }

  it("accepts a public address (no request is sent at save)", async () => {
    const answer = await call(server, "POST", "/api/alerts/rules", {
      token: admin,
      body: { kind: "mint", webhookUrl: "https://93.184.215.14/usdx" },
    });
    expect(answer.status).to.equal(201);
    await server.services.db.db.delete(alertRules);
  });

  it("checks the address again at each attempt: a receiver allowed when saved but refused now gets nothing", async () => {
    const receiver = await AlertReceiver.start();
    try {
      const result = await postWebhook(
        `${receiver.url}/later`,
        "secret",
        "id",
        { test: true },
        {
          timeoutMs: 2000,
          allowPrivate: false,
          httpsOnly: false,
        },
      );
      expect(result).to.include({ ok: false, statusCode: null });
      expect(result.error).to.match(/^Refused: 127\.0\.0\.1 is a loopback address/);
      expect(receiver.received).to.deep.equal([]);
    } finally {
      await receiver.stop();
    }
  });

  it("refuses a name with any refused address among its records (one public, one private), and one that does not resolve", async () => {
    const mixed = async () => [
      { address: "93.184.215.14", family: 4 as const },
      { address: "10.0.0.7", family: 4 as const },
    ];
    const reason = (promise: Promise<unknown>) =>
      promise.then(
        () => "accepted",
        (error: Error) => error.message,
      );
    expect(await reason(resolveChecked(new URL("https://hooks.example/"), false, mixed))).to.match(
      /^Refused: hooks\.example resolves to 10\.0\.0\.7, a private network address/,
    );
    const missing = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    expect(await reason(resolveChecked(new URL("https://nowhere.invalid/"), false, missing))).to.equal(
      "The webhook's host nowhere.invalid does not resolve (ENOTFOUND): check the name.",
    );
    expect(refusedAddress("93.184.215.14", false)).to.equal(null);
    expect(refusedAddress("2606:2800:21f:cb07:6820:80da:af6b:8b2c", false)).to.equal(null);
    expect(refusedAddress("127.0.0.1", true)).to.equal(null);
    expect(refusedAddress("0.0.0.0", true)).to.equal("the unspecified address");
  });
});

describe("Operators' alerts: plain http off the local chain (issue 29, item 7)", function () {
  this.timeout(60_000);
  // A public network's settings (a real Firebase project: the emulator is refused there). A test
  // server cannot run on Sepolia, so the rules and the attempts are given this configuration's alerts.
  const publicNetwork = (extra: Record<string, string> = {}) =>
    loadConfig({
      NETWORK: "sepolia",
      RPC_URL: "https://sepolia.provider.example/v3/KEY",
      GOOGLE_APPLICATION_CREDENTIALS: "key.json",
      FIREBASE_WEB_API_KEY: "web-key",
      ...extra,
    }).alerts;
  const HTTPS_ONLY =
    "Invalid webhook URL: Off the local chain the webhook URL must start with https://: plain http would carry every alert across the network in the clear.";
  let server: RunningServer;
  let rules: AlertRules;

  before(async () => {
    server = await startTestServer();
    rules = new AlertRules(server.services.db.db, publicNetwork(), async () => 0);
  });
  afterEach(async () => {
    await server.services.db.db.delete(alertRules);
  });
  after(async () => {
    await server?.close();
  });

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => "accepted",
      (error: Error & { status?: number }) => `${error.status} ${error.message}`,
    );

  it("refuses an http webhook when a rule is saved, with a sentence, and stores nothing; https is saved", async () => {
    expect(publicNetwork().httpsOnly).to.equal(true);
    expect(server.services.config.alerts.httpsOnly, "the local chain keeps plain http").to.equal(false);
    expect(await refusal(rules.create("uid-1", { kind: "mint", webhookUrl: "http://93.184.215.14/usdx" }))).to.equal(`400 ${HTTPS_ONLY}`);
    expect(await refusal(rules.create("uid-1", { kind: "mint", webhookUrl: "HTTP://hooks.example/usdx" }))).to.equal(`400 ${HTTPS_ONLY}`);
    expect(await server.services.db.db.select().from(alertRules)).to.deep.equal([]);
    expect(await refusal(rules.create("uid-1", { kind: "mint", webhookUrl: "https://93.184.215.14/usdx" }))).to.equal("accepted");
  });

  it("refuses http even where ALERT_ALLOW_PRIVATE_URLS lets a webhook reach this machine", async () => {
    const allowing = new AlertRules(server.services.db.db, publicNetwork({ ALERT_ALLOW_PRIVATE_URLS: "true" }), async () => 0);
    expect(await refusal(allowing.create("uid-1", { kind: "mint", webhookUrl: "http://127.0.0.1:8080/hook" }))).to.equal(
      `400 ${HTTPS_ONLY}`,
    );
  });

  it("refuses it again at each attempt: a rule stored as http before gets nothing sent", async () => {
    const receiver = await AlertReceiver.start();
    try {
      const result = await postWebhook(
        `${receiver.url}/hook`,
        "secret",
        "id",
        { test: true },
        { timeoutMs: 2000, allowPrivate: true, httpsOnly: true },
      );
      expect(result).to.include({ ok: false, statusCode: null });
      expect(result.error).to.equal(HTTPS_ONLY.replace("Invalid webhook URL: ", ""));
      expect(receiver.received).to.deep.equal([]);
      // The control: the same receiver on the local chain's terms gets the delivery.
      const local = await postWebhook(
        `${receiver.url}/hook`,
        "secret",
        "id",
        { test: true },
        { timeoutMs: 2000, allowPrivate: true, httpsOnly: false },
      );
      expect(local.ok, local.error ?? "").to.equal(true);
    } finally {
      await receiver.stop();
    }
  });
});
