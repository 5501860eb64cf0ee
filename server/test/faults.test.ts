/**
 * Faults the server must survive (issue 7, item 2): killed in the middle of a batch, the RPC node
 * unreachable, the chain rewound under a running indexer, the database reopened after a crash.
 * The kills are real: the server runs in a child process on a PGlite directory (or, in the
 * PostgreSQL pass, a PostgreSQL database) and gets SIGKILL, so nothing is closed, flushed or
 * finished the way a graceful stop would.
 */
import { expect } from "chai";
import { readdirSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import path from "node:path";
import { HDNodeWallet, formatUnits, parseUnits } from "ethers";
import { sql } from "drizzle-orm";
import { BatchPayments__factory, USDX__factory } from "@bindings";
import { exactTokenAmount } from "@common/amounts";
import { readManifest } from "@common/manifestFile";
import { LOCAL_DEV_MNEMONIC, localAccountPath, seededAccount } from "@common/seedAccounts";
import type { BankWallet, BlockedAccount, ChunkDetail, Contact, ContractEvent, HistoryEntry } from "@common/apiTypes";
import { openDatabase } from "../src/db/client";
import { batchChunks, batchRecipients, chainEvents, contacts, indexerState } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import {
  BatchPlan,
  chainKeys,
  emailUser,
  indexKeys,
  mine,
  provider,
  randomAddress,
  request,
  revert,
  snapshot,
  stack,
  startTestServer,
  testConfig,
  testPostgres,
  until,
  untilIndexEqualsChain,
  walletUser,
} from "./helpers";
import { killServerProcesses, startServerProcess } from "./serverProcess";
import { migratedDataDir } from "./dataDirs";

const ROOT = path.resolve(__dirname, "..", "..");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const usd = (amount: string) => parseUnits(amount, 18);
const manifest = () => readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir });

/** A seeded account as a wallet that signs locally (SIWE messages) and sends through the test node. */
const seeded = (name: string) =>
  HDNodeWallet.fromPhrase(LOCAL_DEV_MNEMONIC, undefined, localAccountPath(seededAccount(name).index)).connect(provider());
const usdxAs = (name: string) => USDX__factory.connect(manifest().proxy, seeded(name));

async function transfer(from: string, to: string, amount: string) {
  return (await (await usdxAs(from).transfer(seeded(to).address, usd(amount))).wait())!;
}

// ---------------------------------------------------------------- the server as a process

// ---------------------------------------------------------------- an RPC node that can be cut off

/** A JSON-RPC request as the forwarder reads it; a batch is a list of them. */
interface RpcRequest {
  method: string;
  params?: unknown[];
}

/**
 * An HTTP forwarder in front of the Hardhat node, as a load balancer or a flaky network would be.
 * 'refuse' drops every connection at once; 'blackhole' accepts requests and never answers (a hung
 * node, the case only a timeout ends). `beforeForward` runs on a request before it reaches the node.
 */
class RpcProxy {
  mode: "forward" | "refuse" | "blackhole" = "forward";
  beforeForward: ((methods: string[], body: RpcRequest | RpcRequest[]) => Promise<void>) | null = null;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(target: string): Promise<RpcProxy> {
    // The handlers reach the proxy, made once the server listens; no request comes before start returns the URL.
    const server = http.createServer(async (req, res) => {
      let text = "";
      for await (const chunk of req) text += chunk;
      if (proxy.mode === "blackhole") return; // held open until the socket is destroyed
      try {
        const body: RpcRequest | RpcRequest[] = JSON.parse(text);
        const methods = (Array.isArray(body) ? body : [body]).map((r: { method: string }) => r.method);
        if (proxy.beforeForward) await proxy.beforeForward(methods, body);
        const answer = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: text });
        res.writeHead(answer.status, { "content-type": "application/json" });
        res.end(await answer.text());
      } catch (error) {
        res.writeHead(502).end(String(error));
      }
    });
    server.on("connection", (socket) => {
      if (proxy.mode === "refuse") return socket.destroy();
      proxy.sockets.add(socket);
      socket.once("close", () => proxy.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const proxy = new RpcProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return proxy;
  }

  /** Cuts the node off: open connections (kept alive by the server's clients) die too. */
  cut(mode: "refuse" | "blackhole"): void {
    this.mode = mode;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.mode = "forward";
    for (const socket of this.sockets) socket.destroy(); // requests held by the blackhole fail now, and are asked again
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

// ---------------------------------------------------------------- the tests

describe("Server faults", function () {
  // Each restarts a server process (up to 60 s to be ready on a busy machine: serverProcess.ts) and
  // waits out the node's silence, about 26 s alone; a real hang still fails.
  this.timeout(150_000);
  let chainSnapshot: string;
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await migratedDataDir("usdx-faults-");
    dirs.push(dir);
    return dir;
  };

  beforeEach(async () => {
    chainSnapshot = await snapshot();
  });
  afterEach(async () => {
    killServerProcesses();
    await revert(chainSnapshot);
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("a server killed (SIGKILL) in the middle of a batch resumes it on restart: completed, everyone paid once, nothing stored twice", async () => {
    const dir = await tempDir();
    const alice = seeded("alice");
    const { batchPayments, proxy } = manifest();
    const batch = BatchPayments__factory.connect(batchPayments, alice);
    const usdx = USDX__factory.connect(proxy, alice);
    const pay = async (chunk: BatchPlan["chunks"][number]) =>
      (await (await batch.pay(chunk.recipients, chunk.amounts, chunk.reference)).wait())!.hash;

    // Chunks of 2: seven recipients are four transactions.
    const first = await startServerProcess(dir, { BATCH_CHUNK_SIZE: "2" });
    const { idToken } = await walletUser(first as unknown as RunningServer, alice as never);
    const recipients = Array.from({ length: 7 }, (_, i) => ({ name: `Payee ${i}`, address: randomAddress(), amount: `${i + 1}.25` }));
    const started = await request(first, "POST", "/api/batch/execute", { token: idToken, body: { recipients } });
    expect(started.status).to.equal(201);
    const plan = started.body as BatchPlan;
    expect(plan.chunks.map((c) => c.recipients.length)).to.deep.equal([2, 2, 2, 1]);
    await (await usdx.approve(batchPayments, plan.totalAmountRaw)).wait();

    // Chunks 0 and 1 paid and reported, and seen paid by the server.
    const hashes: string[] = [];
    for (const i of [0, 1]) {
      hashes[i] = await pay(plan.chunks[i]);
      expect(
        (
          await request(first, "POST", `/api/batch/${plan.jobId}/transactions`, {
            token: idToken,
            body: { chunkIndex: i, txHash: hashes[i] },
          })
        ).status,
      ).to.equal(200);
    }
    await until(
      "chunks 0 and 1 confirmed",
      async () => (await request(first, "GET", `/api/batch/${plan.jobId}`, { token: idToken })).body.job.chunks,
      (c) => c.confirmed === 2,
    );
    // Chunk 2 is mined, its report is on its way, and the server dies: the report, the indexer's
    // step and the watcher's step may each be anywhere, half done or not begun.
    hashes[2] = await pay(plan.chunks[2]);
    const lostReport = request(first, "POST", `/api/batch/${plan.jobId}/transactions`, {
      token: idToken,
      body: { chunkIndex: 2, txHash: hashes[2] },
    }).catch(() => null);
    await first.kill();
    await lostReport;

    const second = await startTestServer({ PGLITE_DIR: dir, BATCH_CHUNK_SIZE: "2" });
    try {
      const settle = async () => {
        await second.services.indexer.syncOnce();
        await second.services.batchWatcher.runOnce();
      };
      const status = async () => (await request(second, "GET", `/api/batch/${plan.jobId}`, { token: idToken })).body;
      await settle();
      // Chunk 2 is found by its reference whether or not its report got through.
      let detail = await status();
      expect(detail.job).to.include({ status: "processing", recipientsPaid: 6 });
      expect(detail.chunks.map((c: ChunkDetail) => c.status)).to.deep.equal(["confirmed", "confirmed", "confirmed", "pending"]);

      // The browser reports chunk 2 again (it never saw an answer), then pays and reports the last chunk.
      expect(
        (
          await request(second, "POST", `/api/batch/${plan.jobId}/transactions`, {
            token: idToken,
            body: { chunkIndex: 2, txHash: hashes[2] },
          })
        ).status,
      ).to.equal(200);
      hashes[3] = await pay(plan.chunks[3]);
      expect(
        (
          await request(second, "POST", `/api/batch/${plan.jobId}/transactions`, {
            token: idToken,
            body: { chunkIndex: 3, txHash: hashes[3] },
          })
        ).status,
      ).to.equal(200);
      await settle();

      detail = await status();
      const total = recipients.reduce((sum, r) => sum + usd(r.amount), 0n);
      expect(detail.job).to.include({
        status: "completed",
        recipients: 7,
        recipientsPaid: 7,
        totalAmountRaw: total.toString(),
        payer: alice.address,
        error: null,
      });
      expect(detail.job.chunks).to.deep.equal({ total: 4, confirmed: 4, submitted: 0, failed: 0 });
      expect(detail.job.txHashes).to.deep.equal(hashes);

      // The rows themselves: four chunks, seven recipients, each paid by its own chunk's transaction.
      const db = second.services.db.db;
      const chunkRows = await db
        .select()
        .from(batchChunks)
        .where(sql`${batchChunks.jobId} = ${plan.jobId}`);
      expect(chunkRows.map((c) => [c.index, c.status, c.txHash]).sort()).to.deep.equal(hashes.map((h, i) => [i, "confirmed", h]));
      const recipientRows = await db
        .select()
        .from(batchRecipients)
        .where(sql`${batchRecipients.jobId} = ${plan.jobId}`);
      expect(recipientRows.map((r) => r.position).sort()).to.deep.equal([0, 1, 2, 3, 4, 5, 6]);
      for (const r of recipientRows)
        expect(r).to.include({ status: "paid", txHash: hashes[r.chunkIndex], address: recipients[r.position].address });

      // The index holds what the chain holds, once: one BatchPaid per chunk, one Transfer per recipient.
      expect(await indexKeys(db)).to.deep.equal(await chainKeys());
      const paidRefs = await db
        .select()
        .from(chainEvents)
        .where(sql`${chainEvents.eventName} = 'BatchPaid'`);
      for (const chunk of plan.chunks)
        expect(
          paidRefs.filter((e) => e.args.paymentRef === chunk.reference),
          `BatchPaid of chunk ${chunk.index}`,
        ).to.have.length(1);
      for (const r of recipients) {
        const received = await db
          .select()
          .from(chainEvents)
          .where(sql`${chainEvents.toAddress} = ${r.address.toLowerCase()}`);
        expect(
          received.map((e) => e.args.value),
          r.name,
        ).to.deep.equal([usd(r.amount).toString()]);
        // On chain too: paid once (a rebasing balance may show up to two base units less than was sent).
        const balance = await usdx.balanceOf(r.address);
        expect(balance <= usd(r.amount) && balance >= usd(r.amount) - 2n, `${r.name} holds ${balance}`).to.equal(true);
      }
    } finally {
      await second.close();
    }
  });

  it("while the RPC node is unreachable answers 503 in words where it needs the chain, answers from the index where it can, says so in /api/health, and recovers on its own", async () => {
    const proxy = await RpcProxy.start(stack().rpcUrl);
    const server = await startTestServer({ RPC_URL: proxy.url });
    try {
      const alice = seeded("alice");
      const { idToken } = await walletUser(server, alice as never);
      const payment = { recipients: [{ address: randomAddress(), amount: "1" }], payer: alice.address };
      const jobsBefore = (await request(server, "GET", "/api/batch", { token: idToken })).body.jobs.length;

      const reads = async () => {
        const [token, blocklist, execute, events, history, jobs, wallets] = await Promise.all([
          request(server, "GET", "/api/token"),
          request(server, "GET", "/api/blocklist"),
          request(server, "POST", "/api/batch/execute", { token: idToken, body: payment }),
          request(server, "GET", "/api/events?limit=5"),
          request(server, "GET", `/api/accounts/${alice.address}/history`),
          request(server, "GET", "/api/batch", { token: idToken }),
          request(server, "GET", "/api/bank/wallets", { token: idToken }),
        ]);
        return { token, blocklist, execute, events, history, jobs, wallets };
      };
      const expectDown = (answers: Awaited<ReturnType<typeof reads>>) => {
        // What the index can answer, it answers: the token's figures as of its checkpoint (saying
        // so), the blocklist as its events left it (issue 14: a busy node is never a 5xx there).
        expect(answers.token.status).to.equal(200);
        expect(answers.token.body).to.include({ source: "index", paused: false, blockNumber: server.services.indexer.status().checkpoint });
        expect(answers.blocklist.status).to.equal(200);
        expect(answers.blocklist.body.blocked.map((b: BlockedAccount) => b.address)).to.deep.equal([seeded("dave").address]);
        // What needs the chain now: a 503 with a sentence, never a 500 or a stack.
        expect(answers.execute).to.deep.equal({
          status: 503,
          body: { success: false, error: "Cannot read the payer's balance: the chain's RPC node is not answering. Try again shortly." },
        });
        // Reads of the index and the database go on.
        expect(answers.events.status).to.equal(200);
        expect(answers.events.body.events).to.have.length(5);
        expect(answers.history.status).to.equal(200);
        expect(answers.history.body.items.length).to.be.greaterThan(0);
        expect(answers.jobs.status).to.equal(200);
        expect(answers.jobs.body.jobs).to.have.length(jobsBefore); // the refused batch stored nothing
        // The mock bank's wallets are listed, their balances unknown rather than wrong.
        expect(answers.wallets.status).to.equal(200);
        expect(answers.wallets.body.wallets.map((w: BankWallet) => [w.address, w.balance])).to.deep.equal([[alice.address, null]]);
      };

      // A node that accepts connections and never answers: only timeouts end the wait.
      proxy.cut("blackhole");
      expectDown(await reads());
      // Transfers mined while the server cannot see the node.
      const away = [await transfer("alice", "bob", "7"), await transfer("bob", "carol", "8")];
      const health = await until(
        "the indexer to report the node away",
        () => request(server, "GET", "/api/health"),
        // Health asks the node nothing: its chain part turns at the loops' next failed head read,
        // which can come a poll after the indexer's first error (one from another of its reads).
        (h) => h.body.indexer?.lastError !== null && h.body.chain?.ok === false,
      );
      expect(health.status).to.equal(503);
      expect(health.body).to.deep.include({
        status: "degraded",
        chain: { ok: false, error: `the RPC node at ${proxy.url} is not answering` },
        database: { ok: true, kind: testPostgres() ? "postgres" : "pglite" },
      });

      // A node whose connections are refused outright: the same answers.
      proxy.cut("refuse");
      expectDown(await reads());

      proxy.restore();
      const head = await provider().getBlockNumber();
      const back = await until(
        "the server to recover by itself",
        () => request(server, "GET", "/api/health"),
        (h) => h.status === 200 && h.body.indexer.checkpoint >= head,
      );
      expect(back.body.chain).to.deep.equal({ ok: true, blockNumber: head });
      // What was mined while the node was away is indexed, once.
      expect(await indexKeys(server.services.db.db)).to.deep.equal(await chainKeys());
      const events = await request(server, "GET", "/api/events?limit=2&eventName=Transfer");
      expect(events.body.events.map((e: ContractEvent) => e.transactionHash)).to.deep.equal([away[1].hash, away[0].hash]);
      const token = await request(server, "GET", "/api/token");
      expect(token.status).to.equal(200);
      expect(token.body.totalSupply).to.equal((await usdxAs("alice").totalSupply()).toString());
      expect((await request(server, "POST", "/api/batch/execute", { token: idToken, body: payment })).status).to.equal(201);
    } finally {
      await server.close();
      await proxy.stop();
    }
  });

  describe("a chain rewind under the running indexer, while the API is being read", () => {
    let server: RunningServer;
    let proxy: RpcProxy;
    let readers: Promise<number[]>;
    let reading = false;

    /** Stops the readers; every answer they had must have been a 200. */
    async function expectEveryReadAnswered() {
      reading = false;
      const statuses = await readers;
      expect(statuses.length).to.be.greaterThan(0);
      expect(
        statuses.filter((s) => s !== 200),
        "answers to the readers during the rewind",
      ).to.deep.equal([]);
    }

    beforeEach(async () => {
      proxy = await RpcProxy.start(stack().rpcUrl);
      server = await startTestServer({ RPC_URL: proxy.url, INDEXER_POLL_MS: "50" });
      // Readers keep asking throughout: a rewind must never make a read fail.
      reading = true;
      const alice = seeded("alice").address;
      readers = (async () => {
        const statuses: number[] = [];
        while (reading) {
          const answers = await Promise.all([
            request(server, "GET", "/api/events?limit=20"),
            request(server, "GET", `/api/accounts/${alice}/history?limit=20`),
            request(server, "GET", "/api/stats/supply"),
          ]);
          statuses.push(...answers.map((a) => a.status));
          await sleep(10);
        }
        return statuses;
      })();
    });
    afterEach(async () => {
      reading = false;
      await readers.catch(() => undefined);
      await server.close();
      await proxy.stop();
    });

    /** The index equals the chain, and what the API says of it agrees with the node. */
    async function expectIndexIsTheChain(abandoned: string[]) {
      expect(abandoned, "the abandoned fork had events").not.to.have.lengthOf(0);
      const chain = await untilIndexEqualsChain(server.services.db.db);
      expect(
        chain.filter((k) => abandoned.includes(k)),
        "events of the abandoned fork",
      ).to.deep.equal([]);
      const { proxy: token, batchPayments, deploymentBlock } = manifest();
      const logs = await provider().getLogs({ address: [token, batchPayments], fromBlock: deploymentBlock, toBlock: "latest" });
      const newest = logs.slice(-10).reverse();
      const page = await request(server, "GET", "/api/events?limit=10");
      expect(page.body.events.map((e: ContractEvent) => [e.blockNumber, e.logIndex, e.transactionHash])).to.deep.equal(
        newest.map((l) => [l.blockNumber, l.index, l.transactionHash]),
      );
      // Histories: exactly the chain's transfers of each account.
      const usdx = usdxAs("alice");
      for (const name of ["alice", "bob", "carol", "erin"]) {
        const account = seeded(name).address;
        const [sent, received] = await Promise.all([
          usdx.queryFilter(usdx.filters.Transfer(account, undefined), deploymentBlock),
          usdx.queryFilter(usdx.filters.Transfer(undefined, account), deploymentBlock),
        ]);
        const onChain = [...new Map([...sent, ...received].map((l) => [`${l.blockNumber}-${l.index}`, l])).values()]
          .sort((a, b) => b.blockNumber - a.blockNumber || b.index - a.index)
          .map((l) => [l.transactionHash, exactTokenAmount(l.args.value)]);
        const history = await request(server, "GET", `/api/accounts/${account}/history?limit=100`);
        expect(
          history.body.items.map((i: HistoryEntry) => [i.hash, i.amount]),
          `history of ${name}`,
        ).to.deep.equal(onChain);
      }
      // Supply: the chart's replay of the index and the token figures both equal the chain.
      const supply = await usdx.totalSupply();
      const chart = await request(server, "GET", "/api/stats/supply?points=5000");
      expect(chart.body.points.at(-1).totalSupply).to.equal(formatUnits(supply, 18));
      const figures = await request(server, "GET", "/api/token");
      expect(figures.body.totalSupply, "GET /api/token after the rewind").to.equal(supply.toString());
    }

    it("between two indexer steps: the abandoned fork's events go, the new fork's come, token figures follow", async () => {
      await untilIndexEqualsChain(server.services.db.db);
      const fork = await snapshot();
      const forkBlock = await provider().getBlockNumber();
      // The abandoned fork: a mint, two transfers, three blocks.
      await (await usdxAs("minter").mint(seeded("erin").address, usd("1000"))).wait();
      await transfer("alice", "bob", "3");
      await transfer("alice", "carol", "4");
      const before = await untilIndexEqualsChain(server.services.db.db, "the abandoned fork to be indexed");
      const old = await request(server, "GET", "/api/token");
      expect(old.body.totalSupply).to.equal((await usdxAs("alice").totalSupply()).toString());

      await revert(fork);
      // The new fork: as many blocks, so the index's checkpoint has the same number on both forks.
      await transfer("bob", "alice", "5");
      await mine();
      await transfer("carol", "erin", "6");
      await expectIndexIsTheChain(before.filter((k) => Number(k.split("-")[0]) > forkBlock));
      await expectEveryReadAnswered();
    });

    it("in the middle of an indexer step: a rewind between its reorg check and its log read is caught", async () => {
      await untilIndexEqualsChain(server.services.db.db);
      const fork = await snapshot();
      const forkBlock = await provider().getBlockNumber();
      await transfer("alice", "bob", "11");
      const before = await untilIndexEqualsChain(server.services.db.db, "the first block of the abandoned fork to be indexed");

      // The next eth_getLogs finds the chain already rewound and grown longer on a new fork: the
      // step checked its checkpoint on the old fork and reads logs from the new one.
      let rewound = false;
      proxy.beforeForward = async (methods, body) => {
        // A batch of calls (ethers sends them so) has no params of its own: Number(undefined) is NaN, so it never returns here.
        const filter = Array.isArray(body) ? undefined : (body.params?.[0] as { fromBlock?: string } | undefined);
        if (rewound || !methods.includes("eth_getLogs") || Number(filter?.fromBlock) <= forkBlock + 1) return;
        rewound = true;
        await revert(fork);
        await transfer("carol", "alice", "12");
        await transfer("bob", "carol", "13");
        await transfer("alice", "erin", "14");
      };
      await transfer("alice", "carol", "15"); // the old fork's second block sets the step off
      await until(
        "the rewind during a step",
        async () => rewound,
        (r) => r,
      );
      proxy.beforeForward = null;
      await expectIndexIsTheChain(before.filter((k) => Number(k.split("-")[0]) > forkBlock));
      await expectEveryReadAnswered();
    });
  });

  it("reopens the database a SIGKILL'd server left (a PGlite directory, or a PostgreSQL database): migrations idempotent, rows intact, the index resumes from its checkpoint", async function () {
    // A child server (compiled by ts-node) and three PGlite opens: on a busy 2-core machine, more than the default.
    this.timeout(150_000);
    const dir = await tempDir();
    const { batchPayments } = manifest();
    const first = await startServerProcess(dir);
    const user = await emailUser();
    const contact = { name: "Kept across a crash", address: randomAddress(), notes: "written before the kill" };
    expect((await request(first, "POST", "/api/contacts", { token: user.idToken, body: contact })).status).to.equal(201);
    // A batch of 300 Transfers, killed as soon as it is mined: the indexer is likely in the middle
    // of reading or storing it, and its one transaction either committed or never happened.
    const admin = seeded("admin");
    const recipients = Array.from({ length: 300 }, randomAddress);
    await (await USDX__factory.connect(manifest().proxy, admin).approve(batchPayments, usd("300"))).wait();
    const batch = BatchPayments__factory.connect(batchPayments, admin);
    await (
      await batch.pay(
        recipients,
        recipients.map(() => usd("1")),
        `0x${"ab".repeat(32)}`,
        { gasLimit: 16_000_000 },
      )
    ).wait();
    await first.kill();
    // Mined while no server runs.
    await transfer("alice", "bob", "21");
    await transfer("bob", "carol", "22");

    const database = testConfig({ PGLITE_DIR: dir }).database;
    const migrations = () => readdirSync(path.join(ROOT, "server", "drizzle")).filter((f) => f.endsWith(".sql")).length;
    let checkpoint: number;
    let keptKeys: string[];
    {
      const reopened = await openDatabase(database);
      try {
        const applied = await reopened.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
        expect((applied as unknown as { rows: { n: number }[] }).rows[0].n).to.equal(migrations());
        const [row] = await reopened.db.select().from(contacts);
        expect(row).to.include({ uid: user.uid, name: contact.name, address: contact.address, notes: contact.notes });
        [{ checkpointBlock: checkpoint }] = await reopened.db.select().from(indexerState);
        // What the index held at its checkpoint is the chain up to it: whole steps, none half stored.
        keptKeys = await indexKeys(reopened.db);
        expect(keptKeys).to.deep.equal((await chainKeys()).filter((k) => Number(k.split("-")[0]) <= checkpoint));
      } finally {
        await reopened.close();
      }
    }
    // Opened again: the migrations are not applied twice, nothing changes.
    {
      const again = await openDatabase(database);
      const applied = await again.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect((applied as unknown as { rows: { n: number }[] }).rows[0].n).to.equal(migrations());
      await again.close();
    }

    const second = await startTestServer({ PGLITE_DIR: dir });
    try {
      const db = second.services.db.db;
      const now = await indexKeys(db);
      expect(now).to.deep.equal(await chainKeys());
      // It carried on from the checkpoint: what it held is still there, the rest added once.
      expect(now.filter((k) => Number(k.split("-")[0]) <= checkpoint)).to.deep.equal(keptKeys);
      const counted = (await db.execute(
        sql`select count(*)::int as n, count(distinct (block_number, log_index))::int as d from chain_events`,
      )) as unknown as {
        rows: { n: number; d: number }[];
      };
      expect(counted.rows[0].n).to.equal(counted.rows[0].d);
      const contactsNow = await request(second, "GET", "/api/contacts", { token: user.idToken });
      expect(contactsNow.body.contacts.map((c: Contact) => c.name)).to.deep.equal([contact.name]);
    } finally {
      await second.close();
    }
  });
});
