/**
 * Operators' alerts (issue 18): a receiver on loopback gets exactly one signed delivery per
 * matching event and rule, retried with backoff when it fails, and still once after the server is
 * SIGKILLed in the middle of the retries; an event a reorganisation takes away is never delivered.
 * The API's own rules (admins only, bad input, URL checks, 'Send test') are in alertRules.test.ts.
 */
import { expect } from "chai";
import { rmSync } from "node:fs";
import { Wallet, parseUnits } from "ethers";
import { eq } from "drizzle-orm";
import { USDX__factory } from "@bindings";
import { readManifest } from "@common/manifestFile";
import { ROLES } from "@common/roles";
import type { AlertAttempt } from "@common/api/alerts";
import { alertDeliveries, alertRules } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { CANCELLED } from "../src/services/alerts/deliverer";
import { probeParts } from "../src/services/operations/probes";
import { AlertReceiver, signedBy } from "./alertReceiver";
import { call, mine, randomAddress, revert, seeded, snapshot, stack, startTestServer, until, walletUser, type ApiBase } from "./helpers";
import { killServerProcesses, startServerProcess } from "./serverProcess";
import { migratedDataDir } from "./dataDirs";

const usd = (amount: string) => parseUnits(amount, 18);
const token = (as: string) =>
  USDX__factory.connect(readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir }).proxy, seeded(as));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function send(as: string, write: (usdx: ReturnType<typeof token>) => Promise<{ wait(): Promise<unknown> }>) {
  await (await write(token(as))).wait();
}

/** Adds a rule through the API as `admin`; answers its id and secret. */
async function addRule(
  server: ApiBase,
  admin: string,
  kind: string,
  webhookUrl: string,
  threshold?: string,
): Promise<{ id: number; secret: string }> {
  const answer = await call(server, "POST", "/api/alerts/rules", { token: admin, body: { kind, webhookUrl, threshold } });
  expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
  return { id: answer.body.rule.id, secret: answer.body.secret };
}

describe("Operators' alerts: deliveries", function () {
  this.timeout(120_000);
  const adminWallet = Wallet.createRandom() as unknown as Wallet;
  let server: RunningServer;
  let receiver: AlertReceiver;
  let admin: string;
  let chain = "";

  before(async () => {
    receiver = await AlertReceiver.start();
    server = await startTestServer({
      ADMIN_WALLETS: adminWallet.address,
      ALERT_POLL_MS: "100",
      ALERT_RETRY_BASE_MS: "150",
      ALERT_RETRY_MAX_MS: "600",
      ALERT_MAX_ATTEMPTS: "4",
    });
    admin = (await walletUser(server, adminWallet)).idToken;
  });
  beforeEach(async () => {
    chain = await snapshot();
  });
  afterEach(async () => {
    // Rules go with their test, so no later test's events reach them.
    await server.services.db.db.delete(alertRules);
    await revert(chain);
  });
  after(async () => {
    await server?.close();
    await receiver?.stop();
  });

  it("each kind of rule gets exactly one signed delivery per matching event, and nothing for the events it does not watch", async () => {
    const rules = {
      "/mint": await addRule(server, admin, "mint", `${receiver.url}/mint`),
      "/mint-big": await addRule(server, admin, "mint", `${receiver.url}/mint-big`, "1000"),
      "/burn": await addRule(server, admin, "burn", `${receiver.url}/burn`, "0.5"),
      "/role": await addRule(server, admin, "role", `${receiver.url}/role`),
      "/pause": await addRule(server, admin, "pause", `${receiver.url}/pause`),
      "/upgrade": await addRule(server, admin, "upgrade", `${receiver.url}/upgrade`),
      "/multiplier": await addRule(server, admin, "multiplier", `${receiver.url}/multiplier`),
      "/multiplier-step": await addRule(server, admin, "multiplier", `${receiver.url}/multiplier-step`, "0.01"),
      "/blocklist": await addRule(server, admin, "blocklist", `${receiver.url}/blocklist`),
    };
    const erin = seeded("erin").address;
    const bob = seeded("bob").address;
    await send("minter", (t) => t.mint(erin, usd("5")));
    await send("minter", (t) => t.mint(bob, usd("2000")));
    await send("burner", (t) => t.burn(bob, usd("1")));
    await send("burner", (t) => t.burn(bob, usd("0.25"))); // not above the burn rule's 0.5
    await send("alice", (t) => t.transfer(bob, usd("1"))); // a transfer is no mint or burn
    await send("alice", (t) => t.approve(bob, usd("1"))); // nothing watches approvals
    await send("admin", (t) => t.grantRole(ROLES.MINTER_ROLE, erin));
    await send("admin", (t) => t.revokeRole(ROLES.MINTER_ROLE, erin));
    await send("pauser", (t) => t.pause());
    await send("pauser", (t) => t.unpause());
    const implementation = await new USDX__factory(seeded("upgrader")).deploy();
    await implementation.waitForDeployment();
    await send("upgrader", (t) => t.upgradeTo(implementation.target as string));
    const multiplier = await token("oracle").rewardMultiplier();
    await send("oracle", (t) => t.addRewardMultiplier(usd("0.001"))); // a step of 0.001: only the 'any change' rule
    await send("oracle", (t) => t.setRewardMultiplier(multiplier + usd("0.051"))); // 0.05 more: both
    await send("blocklister", (t) => t.blockAccount(erin));
    await send("blocklister", (t) => t.unblockAccount(erin));

    const expected: Record<keyof typeof rules, string[]> = {
      "/mint": ["Transfer", "Transfer"],
      "/mint-big": ["Transfer"],
      "/burn": ["Transfer"],
      "/role": ["RoleGranted", "RoleRevoked"],
      "/pause": ["Paused", "Unpaused"],
      "/upgrade": ["Upgraded"],
      "/multiplier": ["RewardMultiplier", "RewardMultiplier"],
      "/multiplier-step": ["RewardMultiplier"],
      "/blocklist": ["AccountBlocked", "AccountUnblocked"],
    };
    const counts = () => Object.fromEntries(Object.keys(rules).map((p) => [p, receiver.delivered(p).length]));
    const want = Object.fromEntries(Object.entries(expected).map(([p, names]) => [p, names.length]));
    await until(
      "every delivery",
      async () => counts(),
      (c) => JSON.stringify(c) === JSON.stringify(want),
    );
    // More steps change nothing: each event and rule is delivered once.
    await server.services.alerts.runOnce();
    await sleep(500);
    expect(counts()).to.deep.equal(want);

    for (const [p, rule] of Object.entries(rules)) {
      const got = receiver.at(p);
      expect(
        got.map((r) => r.body.event?.name),
        p,
      ).to.deep.equal(expected[p as keyof typeof rules]);
      for (const r of got) {
        expect(signedBy(r, rule.secret), `${p}: signature`).to.equal(true);
        expect(r.body).to.include({ test: false, chainId: 31337 });
        expect(r.body.rule).to.deep.equal({ id: rule.id, kind: r.body.rule.kind });
        expect(r.headers["x-usdx-delivery"]).to.equal(r.body.deliveryId);
        expect(Number(r.headers["x-usdx-timestamp"])).to.equal(Math.floor(Date.parse(r.body.sentAt) / 1000));
      }
    }
    expect(receiver.at("/mint-big")[0].body.event?.args).to.include({ to: bob, value: usd("2000").toString() });
    expect(receiver.at("/mint-big")[0].body.summary).to.equal(`Mint of 2000 USDX to ${bob}`);
    expect(receiver.at("/role")[0].body.summary).to.equal(`MINTER_ROLE granted to ${erin} by ${seeded("admin").address}`);
    expect(receiver.at("/multiplier-step")[0].body.event?.args.value).to.equal((multiplier + usd("0.051")).toString());
    const ids = receiver.received.map((r) => r.body.deliveryId);
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it("a multiplier rule with a step percentage alerts on a change of more than that share of every balance, up or down, and not on a smaller one", async () => {
    const made = await call(server, "POST", "/api/alerts/rules", {
      token: admin,
      body: { kind: "multiplier", stepPercent: "1", webhookUrl: `${receiver.url}/multiplier-percent` },
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body.rule).to.include({ kind: "multiplier", threshold: null, stepPercent: "1" });
    const m0 = await token("oracle").rewardMultiplier();
    const up = (m0 * 102n) / 100n;
    const down = (up * 995n) / 1000n;
    const back = (down * 98n) / 100n;
    await send("oracle", (t) => t.setRewardMultiplier((m0 * 1005n) / 1000n)); // +0.5%: below the step
    await send("oracle", (t) => t.setRewardMultiplier(up)); // +1.49% from the one before: above
    await send("oracle", (t) => t.setRewardMultiplier(down)); // -0.5%: below
    await send("oracle", (t) => t.setRewardMultiplier(back)); // -2%: above, down
    await until(
      "both deliveries",
      async () => receiver.delivered("/multiplier-percent").length,
      (n) => n === 2,
    );
    await server.services.alerts.runOnce();
    await sleep(500);
    expect(receiver.at("/multiplier-percent").map((r) => r.body.event?.args.value)).to.deep.equal([up.toString(), back.toString()]);
  });

  it("retries with backoff when the receiver answers 500, delivers once on the 200, logs every attempt; a receiver that never answers 2xx fails after ALERT_MAX_ATTEMPTS", async () => {
    receiver.answer = (n, p) => (p === "/always-500" || (p === "/flaky" && n < 2) ? 500 : 200);
    const flaky = await addRule(server, admin, "pause", `${receiver.url}/flaky`);
    const broken = await addRule(server, admin, "pause", `${receiver.url}/always-500`);
    await send("pauser", (t) => t.pause());
    await until(
      "the flaky receiver's 200",
      async () => receiver.delivered("/flaky").length,
      (n) => n === 1,
    );
    const log = async (ruleId: number) =>
      (await call(server, "GET", `/api/alerts/deliveries?ruleId=${ruleId}`, { token: admin })).body.deliveries;
    const [failed] = await until(
      "the broken receiver's last attempt",
      () => log(broken.id),
      (d) => d[0]?.status === "failed",
    );
    const [delivered] = await log(flaky.id);
    expect(delivered).to.include({ status: "delivered", attemptCount: 3, test: false, kind: "pause", nextAttemptAt: null });
    expect(delivered.attempts.map((a: AlertAttempt) => a.statusCode)).to.deep.equal([500, 500, 200]);
    expect(delivered.attempts[0].excerpt).to.equal("receiver says no (500)");
    const times = delivered.attempts.map((a: AlertAttempt) => Date.parse(a.attemptedAt));
    expect(times[1] - times[0]).to.be.at.least(150);
    expect(times[2] - times[1]).to.be.at.least(300);
    const sent = receiver.at("/flaky");
    expect(sent).to.have.length(3);
    expect(new Set(sent.map((r) => r.headers["x-usdx-delivery"])).size).to.equal(1);
    for (const r of sent) expect(signedBy(r, flaky.secret)).to.equal(true);

    expect(failed.attempts.map((a: AlertAttempt) => a.statusCode)).to.deep.equal([500, 500, 500, 500]);
    expect(failed.note).to.equal("No success after 4 attempts; the last: HTTP 500.");
    await sleep(800);
    expect(receiver.at("/always-500")).to.have.length(4);
    receiver.answer = () => 200;
  });

  it("/monitoring's alerts part counts the deliveries waiting while a receiver holds its answer, and none once it answers", async () => {
    let release = (_status: number) => {};
    const held = new Promise<number>((resolve) => (release = resolve));
    let arrived = 0;
    receiver.answer = (_n, p) => (p === "/slow" ? (arrived++, held) : 200);
    await addRule(server, admin, "pause", `${receiver.url}/slow`);
    await send("pauser", (t) => t.pause());
    await until(
      "the held request",
      async () => arrived,
      (n) => n === 1,
    );
    const alertsPart = async () => (await probeParts(server.services)).find((p) => p.part === "alerts")!;
    expect(await alertsPart()).to.deep.include({ ok: true, detail: "running here; 1 delivery waiting" });
    release(200);
    await until(
      "the delivery",
      () => server.services.alerts.waiting(),
      (n) => n === 0,
    );
    expect((await alertsPart()).detail).to.equal("running here; no delivery waiting");
    receiver.answer = () => 200;
  });
});

// Apart from the other servers of this file: a server process starting beside a running one on a
// busy machine can miss serverProcess.ts's 30 s.
describe("Operators' alerts: a restart", function () {
  this.timeout(120_000);
  const adminWallet = Wallet.createRandom() as unknown as Wallet;
  let receiver: AlertReceiver;
  let chain = "";

  before(async () => {
    receiver = await AlertReceiver.start();
    chain = await snapshot();
  });
  after(async () => {
    killServerProcesses();
    await receiver?.stop();
    await revert(chain);
  });

  it("a server SIGKILLed in the middle of the retries resumes them after a restart and delivers exactly once", async () => {
    const dir = await migratedDataDir("usdx-alerts-");
    const env = { ADMIN_WALLETS: adminWallet.address, ALERT_POLL_MS: "100", ALERT_RETRY_BASE_MS: "2500", ALERT_RETRY_MAX_MS: "2500" };
    receiver.answer = (n, p) => (p === "/restart" && n === 0 ? 500 : 200);
    try {
      const first = await startServerProcess(dir, env);
      const { idToken } = await walletUser(first, adminWallet);
      const rule = await addRule(first, idToken, "blocklist", `${receiver.url}/restart`);
      await send("blocklister", (t) => t.blockAccount(randomAddress()));
      const log = async () => (await call(first, "GET", `/api/alerts/deliveries?ruleId=${rule.id}`, { token: idToken })).body.deliveries;
      await until("the first attempt, answered 500 and logged", log, (d) => d[0]?.attempts.length === 1);
      expect(receiver.at("/restart")).to.have.length(1);
      // Killed while the delivery waits for its retry: nothing is closed or finished.
      await first.kill("SIGKILL");
      const second = await startServerProcess(dir, env);
      await until(
        "the retry (answered 200)",
        async () => receiver.delivered("/restart").length,
        (n) => n === 1,
        30_000,
      );
      await sleep(3000); // past another backoff: no second delivery comes
      const got = receiver.at("/restart");
      expect(got.map((r) => r.answered)).to.deep.equal([500, 200]);
      expect(got[0].headers["x-usdx-delivery"]).to.equal(got[1].headers["x-usdx-delivery"]);
      for (const r of got) expect(signedBy(r, rule.secret)).to.equal(true);
      const { idToken: again } = await walletUser(second, adminWallet);
      const [delivery] = (await call(second, "GET", `/api/alerts/deliveries?ruleId=${rule.id}`, { token: again })).body.deliveries;
      expect(delivery).to.include({ status: "delivered", attemptCount: 2 });
      expect(delivery.attempts.map((a: AlertAttempt) => a.statusCode)).to.deep.equal([500, 200]);
      await second.kill("SIGTERM");
    } finally {
      receiver.answer = () => 200;
      killServerProcesses();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Operators' alerts: reorganisations", function () {
  this.timeout(120_000);
  const adminWallet = Wallet.createRandom() as unknown as Wallet;
  let receiver: AlertReceiver;

  before(async () => {
    receiver = await AlertReceiver.start();
  });
  after(async () => {
    await receiver?.stop();
  });

  /** A server whose alert loop runs only when the test says (runOnce), matching events `confirmations` deep. */
  async function quietServer(confirmations: number) {
    const server = await startTestServer({
      ADMIN_WALLETS: adminWallet.address,
      ALERT_CONFIRMATIONS: String(confirmations),
      ALERT_POLL_MS: "600000",
      ALERT_RETRY_BASE_MS: "600000",
    });
    const admin = (await walletUser(server, adminWallet)).idToken;
    const caughtUp = async () => {
      await server.services.indexer.syncOnce();
      await server.services.alerts.runOnce();
    };
    return { server, admin, caughtUp, deliveries: () => server.services.db.db.select().from(alertDeliveries) };
  }

  it("never delivers an event reorganised away before it was ALERT_CONFIRMATIONS deep; the new fork's event is delivered once", async () => {
    const { server, admin, caughtUp, deliveries } = await quietServer(3);
    const outer = await snapshot();
    try {
      const rule = await addRule(server, admin, "mint", `${receiver.url}/shallow`);
      const fork = await snapshot();
      await send("minter", (t) => t.mint(seeded("erin").address, usd("7")));
      await mine();
      await caughtUp();
      expect(await deliveries(), "two blocks deep: not matched yet").to.deep.equal([]);
      await revert(fork);
      for (let i = 0; i < 5; i++) await mine(); // the new fork, longer, without that mint
      await caughtUp();
      await caughtUp();
      expect(await deliveries()).to.deep.equal([]);
      await send("minter", (t) => t.mint(seeded("erin").address, usd("8")));
      for (let i = 0; i < 3; i++) await mine();
      await caughtUp();
      await caughtUp();
      const got = receiver.delivered("/shallow");
      expect(got.map((r) => r.body.event?.args.value)).to.deep.equal([usd("8").toString()]);
      expect(signedBy(got[0], rule.secret)).to.equal(true);
    } finally {
      await server.close();
      await revert(outer);
    }
  });

  it("cancels a waiting delivery whose event a deeper reorganisation took away: the receiver never gets it", async () => {
    const { server, admin, caughtUp, deliveries } = await quietServer(1);
    receiver.answer = (_n, p) => (p === "/deep" ? 500 : 200);
    const outer = await snapshot();
    try {
      await addRule(server, admin, "mint", `${receiver.url}/deep`);
      const fork = await snapshot();
      await send("minter", (t) => t.mint(seeded("erin").address, usd("9")));
      await mine();
      await caughtUp(); // matched, and the first attempt answered 500
      const [waiting] = await deliveries();
      expect(waiting).to.include({ status: "pending", attempts: 1 });
      await revert(fork);
      for (let i = 0; i < 4; i++) await mine();
      await server.services.db.db.update(alertDeliveries).set({ nextAttemptAt: new Date() }).where(eq(alertDeliveries.id, waiting.id)); // its retry is due
      await caughtUp();
      const [cancelled] = await deliveries();
      expect(cancelled).to.include({ status: "cancelled", attempts: 1, note: CANCELLED.reorged });
      expect(receiver.at("/deep").map((r) => r.answered)).to.deep.equal([500]);
      expect(receiver.delivered("/deep")).to.deep.equal([]);
    } finally {
      receiver.answer = () => 200;
      await server.close();
      await revert(outer);
    }
  });
});
