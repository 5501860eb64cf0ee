import { expect } from "chai";
import type { RunningServer } from "../src/index";
import { seededAccount } from "@common/seedAccounts";
import type { BankWallet } from "@common/apiTypes";
import { address, bankCalls, usdx } from "./bankHelpers";
import { call, emailUser, randomAddress, revert, signer, snapshot, stack, startTestServer } from "./helpers";
import { ProviderProxy } from "./providerProxy";
import { HEALTH_PING_MS } from "../src/routes/health";
import { deployment } from "./safesHelpers";

/**
 * Issue 29, part 2: the provider's quota, spent by anyone. A proxy that counts requests as a hosted
 * provider does (providerProxy.ts) sits in front of the node; public and per-user reads, asked many
 * times, must add no request to it beyond what the server's own loops send at idle.
 */

/** The burst each read is asked: many more than any loop's polls over the same time. */
const BURST = 200;
/** Requests in flight at once, as many visitors' browsers would send them. */
const AT_ONCE = 20;
/**
 * The loops poll every minute here, so an idle window of a few seconds holds at most one step of
 * each (the indexer's head, block and logs reads; the batch watcher's head): what a window may differ by.
 */
const ONE_LOOP_STEP = 6;
/**
 * What one fresh read of an address as a Safe costs at most: its head, code, four Safe calls and four
 * role checks (10), with room for what the client adds to its batches (13 seen a read here).
 */
const SAFE_READ_CALLS = 15;
/** USER_SAFE_LOOKUPS_PER_MINUTE's default: reads of addresses that are no Safe the dashboard shows, per user. */
const SAFE_LOOKUPS = 30;

/** BURST requests, AT_ONCE at a time, to `paths` in turn; their statuses. */
async function burst(server: RunningServer, paths: string | string[], token?: string): Promise<number[]> {
  const asked = typeof paths === "string" ? [paths] : paths;
  const statuses: number[] = [];
  for (let sent = 0; sent < BURST; sent += AT_ONCE) {
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) => call(server, "GET", asked[(sent + i) % asked.length], { token })),
    );
    statuses.push(...answers.map((a) => a.status));
  }
  return statuses;
}

/** JSON-RPC calls the provider answered since its `from`-th request (a batch counts each call: providers bill so). */
const callsSince = (proxy: ProviderProxy, from: number) => proxy.seen.slice(from).reduce((sum, s) => sum + s.methods.length, 0);

/** Calls the provider saw while `work` ran, and over as long again with nothing asked of the server. */
async function providerCalls(proxy: ProviderProxy, work: () => Promise<unknown>): Promise<{ during: number; idle: number }> {
  const start = proxy.seen.length;
  const began = Date.now();
  await work();
  const during = callsSince(proxy, start);
  const took = Date.now() - began;
  const idleStart = proxy.seen.length;
  await new Promise((resolve) => setTimeout(resolve, took));
  return { during, idle: callsSince(proxy, idleStart) };
}

describe("The provider's quota: reads anyone may ask cost the RPC provider nothing per request", function () {
  this.timeout(120_000);
  let chainSnapshot: string;
  let proxy: ProviderProxy;
  let server: RunningServer;

  before(async () => {
    chainSnapshot = await snapshot();
    proxy = await new ProviderProxy(stack().rpcUrl).start();
    // The loops poll once a minute, so what a burst costs stands out from what they send.
    server = await startTestServer({ RPC_URL: proxy.url, INDEXER_POLL_MS: "60000" });
  });
  after(async () => {
    await server?.close();
    await proxy?.stop();
    await revert(chainSnapshot);
  });

  it(`GET /api/health, ${BURST} times: no request reaches the provider beyond idle's, and the chain's part is the head the indexer read`, async () => {
    const { during, idle } = await providerCalls(proxy, async () => {
      const statuses = await burst(server, "/api/health");
      expect(statuses.every((s) => s === 200)).to.equal(true);
    });
    expect(during, `${during} provider calls during the burst, ${idle} at idle`).to.be.at.most(idle + ONE_LOOP_STEP);
    const health = await call(server, "GET", "/api/health");
    expect(health.body.chain).to.deep.equal({ ok: true, blockNumber: server.services.indexer.status().head });
  });

  it(`GET /api/health, ${BURST} times: the database and the identity service are pinged once per HEALTH_PING_MS, not once a call`, async () => {
    const { db, auth } = server.services;
    const pings = { database: 0, auth: 0 };
    const [dbPing, authPing] = [db.ping.bind(db), auth.ping.bind(auth)];
    db.ping = () => (pings.database++, dbPing());
    auth.ping = () => (pings.auth++, authPing());
    try {
      const began = Date.now();
      const statuses = await burst(server, "/api/health");
      expect(statuses.every((s) => s === 200)).to.equal(true);
      // One ping per window the burst spanned (and the one under way when it began).
      const windows = Math.ceil((Date.now() - began) / HEALTH_PING_MS) + 1;
      expect(pings.database, `${pings.database} database pings`).to.be.at.most(windows);
      expect(pings.auth, `${pings.auth} identity pings`).to.be.at.most(windows);
    } finally {
      db.ping = dbPing;
      auth.ping = authPing;
    }
  });

  it(`GET /api/bank/wallets, ${BURST} times for a user with five wallets: their balances are read once, not once a request`, async () => {
    const { as, addWallet } = bankCalls(() => server);
    const user = await emailUser();
    const holder = await (await signer(seededAccount("alice").index)).getAddress();
    await addWallet(user, "Alice's", holder);
    for (let i = 0; i < 4; i++) await addWallet(user, `Fresh ${i}`, address());
    // The first listing reads the balances; every one after it, until the head moves, is answered from memory.
    const first = await as(user).get("/wallets");
    expect(first.body.wallets.map((w: BankWallet) => w.balanceRaw)).to.deep.equal([
      (await usdx().balanceOf(holder)).toString(),
      "0",
      "0",
      "0",
      "0",
    ]);
    const { during, idle } = await providerCalls(proxy, async () => {
      const statuses = await burst(server, "/api/bank/wallets", user.idToken);
      expect(statuses.every((s) => s === 200)).to.equal(true);
    });
    expect(during, `${during} provider calls during the burst, ${idle} at idle`).to.be.at.most(idle + ONE_LOOP_STEP);
  });

  it(`the public token reads (token, roles, blocklist, supply, events), ${BURST} times: answered from the index's caches, not the provider`, async () => {
    const paths = ["/api/token", "/api/roles", "/api/blocklist", "/api/stats/supply?points=10", "/api/events?limit=5"];
    for (const path of paths) expect((await call(server, "GET", path)).status, path).to.equal(200);
    const { during, idle } = await providerCalls(proxy, async () => {
      const statuses = await burst(server, paths);
      expect(statuses.every((s) => s === 200)).to.equal(true);
    });
    expect(during, `${during} provider calls during the burst, ${idle} at idle`).to.be.at.most(idle + ONE_LOOP_STEP);
  });

  it(`GET /api/safes and the Operations Safe's proposals, ${BURST} times: the Safes are read once per head, not once a request`, async () => {
    const user = await emailUser();
    const { safe } = deployment();
    const paths = ["/api/safes", `/api/safes/${safe}/proposals`];
    for (const path of paths) expect((await call(server, "GET", path, { token: user.idToken })).status, path).to.equal(200);
    const { during, idle } = await providerCalls(proxy, async () => {
      const statuses = await burst(server, paths, user.idToken);
      expect(statuses.every((s) => s === 200)).to.equal(true);
    });
    expect(during, `${during} provider calls during the burst, ${idle} at idle`).to.be.at.most(idle + ONE_LOOP_STEP);
  });

  it(`proposals of ${BURST} addresses that are no Safe, by one user: ${SAFE_LOOKUPS} are read, the rest refused (429) before any chain read`, async () => {
    const user = await emailUser();
    const paths = Array.from({ length: BURST }, () => `/api/safes/${randomAddress()}/proposals`);
    const { during, idle } = await providerCalls(proxy, async () => {
      const statuses = await burst(server, paths, user.idToken);
      expect(statuses.filter((s) => s === 404).length).to.equal(SAFE_LOOKUPS);
      expect(statuses.filter((s) => s === 429).length).to.equal(BURST - SAFE_LOOKUPS);
    });
    expect(during, `${during} provider calls during the burst, ${idle} at idle`).to.be.at.most(
      idle + ONE_LOOP_STEP + SAFE_LOOKUPS * SAFE_READ_CALLS,
    );
    // Another user has a budget of their own.
    const other = await emailUser();
    expect((await call(server, "GET", paths[0], { token: other.idToken })).status).to.equal(404);
  });
});
