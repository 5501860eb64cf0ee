import { expect } from "chai";
import { createServer, type Server, type Socket } from "node:net";
import type { HDNodeWallet } from "ethers";
import { BatchPayments__factory, USDX__factory } from "@bindings";
import { HEADS_SAFETY_NET_MS, HeadSubscription } from "../src/chain/heads";
import type { RunningServer } from "../src/index";
import { createLogger } from "../src/lib/logger";
import {
  BatchPlan,
  call,
  chainKeys,
  indexKeys,
  randomAddress,
  revert,
  seeded,
  snapshot,
  stack,
  startTestServer,
  until,
  untilIndexEqualsChain,
  walletUser,
} from "./helpers";
import { freePort } from "./stack";
import { startWsProxy, type WsProxy } from "./wsProxy";
import { ProviderProxy } from "./providerProxy";

/**
 * Issue 30, part 3: with RPC_WS_URL the node's pushed heads wake the indexer and the batch watcher;
 * a dropped socket sends them back to polling at once, and the subscription comes back.
 */

/** The test node's WebSocket endpoint: it answers on its HTTP port. */
const nodeWsUrl = () => stack().rpcUrl.replace(/^http/, "ws");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Whether `promise` settles within `ms` (a stop that hangs never does). */
const settlesWithin = (promise: Promise<unknown>, ms: number) => Promise.race([promise.then(() => true), sleep(ms).then(() => false)]);
// Liveness, not speed: a stop still under way after this long hangs.
const HANG_LIMIT_MS = 5000;

const headsOf = (server: RunningServer) => {
  const heads = server.services.heads;
  if (!heads) throw new Error("RPC_WS_URL was set, but the server subscribed to no heads");
  return heads;
};

/** Waits until the server's heads subscription is live and its index holds the chain; answers the subscription. */
const liveAndIndexed = async (server: RunningServer) => {
  const heads = headsOf(server);
  await until(
    "the heads subscription to be live",
    async () => heads.live,
    (live) => live,
  );
  await untilIndexEqualsChain(server.services.db.db, "the index to hold the chain before the transfer");
  return heads;
};

const transfer = async (from: HDNodeWallet, proxy: string) => {
  await (await USDX__factory.connect(proxy, from).transfer(randomAddress(), 1n)).wait();
};

describe("pushed heads (RPC_WS_URL)", () => {
  let chainSnapshot: string;
  before(async () => {
    chainSnapshot = await snapshot();
  });
  after(async () => {
    await revert(chainSnapshot);
  });

  describe("the indexer, which polls only every HEADS_SAFETY_NET_MS while heads are pushed", () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({ RPC_WS_URL: nodeWsUrl() });
    });
    after(async () => {
      await server.close();
    });

    it("indexes a mined transfer at its head, not at its next poll", async () => {
      // The wait below (20 s) ends long before the next poll would come.
      expect(HEADS_SAFETY_NET_MS).to.be.greaterThan(20_000);
      const heads = await liveAndIndexed(server);
      const before = (await chainKeys()).length;
      await transfer(seeded("alice"), server.services.chain.manifest.proxy);
      const chain = await untilIndexEqualsChain(server.services.db.db, "the transfer to be indexed");
      expect(chain.length).to.be.greaterThan(before);
      expect(heads.counts.heads).to.be.greaterThan(0);
      // /monitoring says how the indexer learns of new blocks.
      await server.services.monitoring.sample();
      const indexerPart = server.services.monitoring.health().find((p) => p.part === "indexer");
      expect(indexerPart?.detail).to.match(/; indexing here, heads pushed over WebSocket$/);
    });
  });

  describe("a pushed head's header", () => {
    it("is the indexer's tip: a new block costs its logs alone, with no read of the tip", async () => {
      const proxy = await new ProviderProxy(stack().rpcUrl).start();
      const server = await startTestServer({ RPC_URL: proxy.url, RPC_WS_URL: nodeWsUrl() });
      try {
        await liveAndIndexed(server);
        proxy.seen.length = 0;
        for (let i = 0; i < 3; i++) {
          await transfer(seeded("alice"), server.services.chain.manifest.proxy);
          await untilIndexEqualsChain(server.services.db.db, `transfer ${i + 1} of 3 to be indexed`);
        }
        // Each transfer's block is read by its logs. A poll reads the tip (the subscription's first
        // step may still be under way), a pushed head does not: three heads cost no tip read.
        expect(proxy.calls("eth_getLogs").length).to.be.at.least(3);
        expect(proxy.seen.filter((s) => s.blocks?.includes("latest")).length, "tip reads").to.be.at.most(1);
      } finally {
        await server.close();
        await proxy.stop();
      }
    });
  });

  describe("a socket dropped in the middle of a batch job", () => {
    let server: RunningServer;
    let proxy: WsProxy;
    before(async () => {
      proxy = await startWsProxy(nodeWsUrl());
      server = await startTestServer({ RPC_WS_URL: proxy.url, BATCH_CHUNK_SIZE: "2" });
    });
    after(async () => {
      await server.close();
      await proxy.close();
    });

    it("completes the job by polling, indexes every event once, and resubscribes once the endpoint is back", async function () {
      this.timeout(120_000);
      const heads = headsOf(server);
      await until(
        "the heads subscription to be live",
        async () => heads.live,
        (live) => live,
      );
      const alice = seeded("alice");
      const token = (await walletUser(server, alice as never)).idToken;
      const recipients = Array.from({ length: 6 }, () => ({ address: randomAddress(), amount: "1" }));
      const answer = await call(server, "POST", "/api/batch/execute", { token, body: { recipients } });
      expect(answer.status).to.equal(201);
      const plan = answer.body as BatchPlan;
      expect(plan.chunks).to.have.length(3);
      const { proxy: usdx, batchPayments } = server.services.chain.manifest;
      await (await USDX__factory.connect(usdx, alice).approve(batchPayments, BigInt(plan.totalAmountRaw))).wait();
      const pay = async (i: number) => {
        const c = plan.chunks[i];
        await (await BatchPayments__factory.connect(batchPayments, alice).pay(c.recipients, c.amounts, c.reference)).wait();
      };
      const job = () => call(server, "GET", `/api/batch/${plan.jobId}`, { token }).then((a) => a.body);

      // The first chunk while heads are pushed.
      await pay(0);
      await until("the first chunk to be confirmed", job, (b) => b.job.recipientsPaid === 2);

      // The socket dies, and the endpoint turns new ones away: the rest is paid meanwhile.
      proxy.drop();
      await until(
        "the subscription to be down",
        async () => heads.live,
        (live) => !live,
      );
      await pay(1);
      await pay(2);
      const done = await until("the job to complete by polling", job, (b) => b.job.status === "completed");
      expect(done.job.recipientsPaid).to.equal(6);
      expect(heads.live, "the job completed while no heads were pushed").to.equal(false);
      const chain = await untilIndexEqualsChain(server.services.db.db);
      const index = await indexKeys(server.services.db.db);
      expect(new Set(index).size).to.equal(index.length);
      expect(index).to.deep.equal(chain);

      // The endpoint is back: the subscription returns on its own.
      const accepted = proxy.accepted;
      proxy.accept();
      await until(
        "the subscription to come back",
        async () => heads.live,
        (live) => live,
        60_000,
      );
      expect(proxy.accepted).to.be.greaterThan(accepted);
    });
  });

  describe("stop()", () => {
    const log = createLogger("silent");

    it("closes a live socket and retries no more", async () => {
      const proxy = await startWsProxy(nodeWsUrl());
      try {
        const heads = new HeadSubscription(proxy.url, log);
        heads.start();
        await until(
          "the subscription to be live",
          async () => heads.live,
          (live) => live,
        );
        expect(await settlesWithin(heads.stop(), HANG_LIMIT_MS), "stop() returned").to.equal(true);
        expect(heads.live).to.equal(false);
        await until(
          "the proxy to see the socket closed",
          async () => proxy.open,
          (open) => open === 0,
        );
        // Past the first retry's longest wait: no new socket.
        await sleep(1500);
        expect(heads.counts.connections).to.equal(1);
      } finally {
        await proxy.close();
      }
    });

    it("cuts a socket whose handshake is never answered", async () => {
      const { server, sockets, closed, port } = await blackHole();
      try {
        const heads = new HeadSubscription(`ws://127.0.0.1:${port}`, log);
        heads.start();
        await until(
          "the connection to arrive",
          async () => sockets.length,
          (n) => n === 1,
        );
        expect(await settlesWithin(heads.stop(), HANG_LIMIT_MS), "stop() returned").to.equal(true);
        // By stop(), well before the handshake's own timeout (10 s) would have cut it.
        await until(
          "the connection to be closed",
          async () => closed.has(sockets[0]),
          (gone) => gone,
          HANG_LIMIT_MS,
        );
        expect(heads.live).to.equal(false);
      } finally {
        for (const socket of sockets) socket.destroy();
        server.close();
      }
    });

    it("stops retrying an endpoint that refuses connections", async () => {
      const port = await freePort(); // nothing listens there
      const heads = new HeadSubscription(`ws://127.0.0.1:${port}`, log);
      heads.start();
      await until(
        "the first attempt to fail",
        async () => heads.counts.connections,
        (n) => n >= 1,
      );
      await sleep(100);
      expect(await settlesWithin(heads.stop(), HANG_LIMIT_MS), "stop() returned").to.equal(true);
      const tried = heads.counts.connections;
      await sleep(1500);
      expect(heads.counts.connections).to.equal(tried);
    });

    it("lets the server's graceful stop end while the endpoint never answers", async () => {
      const { server: hole, sockets, closed, port } = await blackHole();
      try {
        const server = await startTestServer({ RPC_WS_URL: `ws://127.0.0.1:${port}` });
        await until(
          "the connection to arrive",
          async () => sockets.length,
          (n) => n >= 1,
        );
        expect(await settlesWithin(server.close(), 15_000), "the server stopped").to.equal(true);
        await until(
          "the connection to be closed",
          async () => sockets.every((s) => closed.has(s)),
          (gone) => gone,
          HANG_LIMIT_MS,
        );
      } finally {
        for (const socket of sockets) socket.destroy();
        hole.close();
      }
    });
  });
});

/** A TCP server that accepts connections and never says a word: a WebSocket handshake to it never completes. */
async function blackHole(): Promise<{ server: Server; sockets: Socket[]; closed: Set<Socket>; port: number }> {
  const sockets: Socket[] = [];
  const closed = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => closed.add(socket));
    socket.resume(); // reads (and drops) the handshake, so the client's end is seen
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  return { server, sockets, closed, port };
}
