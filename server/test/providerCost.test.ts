import { expect } from "chai";
import { getAddress, hexlify, parseUnits, randomBytes, toQuantity } from "ethers";
import { USDX__factory } from "@bindings";
import { readManifest } from "@common/manifestFile";
import { revert, seeded, snapshot, stack, startTestServer, chainKeys, indexKeys } from "./helpers";
import { PROVIDERS, ProviderProxy } from "./providerProxy";
import { rpc } from "./stack";
import { BatchCalls } from "../src/chain/batchCalls";
import { RpcTransport } from "../src/chain/rpcTransport";

/**
 * Issue 30, part 1: following the chain costs a hosted provider one request per range. The proxy
 * plays a free plan (10-block eth_getLogs) and counts every HTTP request the server sends; a range
 * costs its eth_getLogs, the tip is read once a poll (and is all a poll with nothing new costs), a
 * new confirmed block whose header the polls read as a tip costs only its logs, and a provider that
 * refuses batches gets the same calls one by one.
 */

const RANGE = 10;
const randomAddress = () => getAddress(hexlify(randomBytes(20)));

describe("Following the chain costs one request per range (a proxy counts the requests)", function () {
  this.timeout(180_000);
  let chainSnapshot: string;
  let proxy: ProviderProxy;

  before(async () => {
    chainSnapshot = await snapshot();
    proxy = await new ProviderProxy(stack().rpcUrl).start();
  });
  after(async () => {
    await proxy.stop();
    await revert(chainSnapshot);
  });

  async function caughtUpServer(settings: Record<string, string> = {}) {
    proxy.settings = { logs: PROVIDERS.alchemy(RANGE) };
    // The deployment checked every 5 minutes, as on Sepolia (on the local chain every step: two calls more).
    const server = await startTestServer({
      RPC_URL: proxy.url,
      INDEXER_BATCH_BLOCKS: String(RANGE),
      INDEXER_POLL_MS: "600000",
      INDEXER_DEPLOYMENT_CHECK_MS: "300000",
      ...settings,
    });
    await server.services.indexer.syncOnce();
    return server;
  }

  it("following the chain block by block (5 confirmations): a poll with no new block costs one call, the tip; a new block one call more, its logs by its hash", async () => {
    const server = await caughtUpServer({ INDEXER_CONFIRMATIONS: "5" });
    const token = USDX__factory.connect(readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir }).proxy, seeded("alice"));
    const step = async () => {
      proxy.seen.length = 0;
      await server.services.indexer.syncOnce();
      return proxy.seen.map((s) => s.methods.join("+"));
    };
    try {
      // The first step (caughtUpServer) read the headers between its checkpoint and the tip: from the next block on, the tips link.
      expect(await step(), "no new block").to.deep.equal(["eth_getBlockByNumber"]);
      await (await token.transfer(randomAddress(), parseUnits("1", 18))).wait();
      expect(await step(), "the transfer's block, not confirmed yet").to.deep.equal(["eth_getBlockByNumber", "eth_getLogs"]);
      for (let i = 0; i < 5; i++) {
        await rpc(stack().rpcUrl, "evm_mine");
        expect(await step(), `block ${i + 2} of 6`).to.deep.equal(["eth_getBlockByNumber", "eth_getLogs"]);
      }
      // The transfer's block is confirmed now, and indexed: the index is the chain's, hashes included.
      expect(await indexKeys(server.services.db.db)).to.deep.equal(await chainKeys());
      expect(await step(), "no new block").to.deep.equal(["eth_getBlockByNumber"]);
      // Two blocks between polls: the general step (the checkpoint's check rides with the range's
      // logs) reads the tip it missed, and the next block costs one call again.
      await rpc(stack().rpcUrl, "hardhat_mine", ["0x2"]);
      expect(await step(), "two new blocks").to.deep.equal([
        "eth_getBlockByNumber",
        "eth_getLogs+eth_getBlockByNumber+eth_getBlockByNumber",
        "eth_getBlockByNumber",
      ]);
      await rpc(stack().rpcUrl, "evm_mine");
      expect(await step(), "one new block again").to.deep.equal(["eth_getBlockByNumber", "eth_getLogs"]);
      expect(await indexKeys(server.services.db.db)).to.deep.equal(await chainKeys());
    } finally {
      await server.close();
    }
  });

  it("500 empty blocks on a 10-block plan: 50 eth_getLogs and one request more, the tip", async () => {
    const server = await caughtUpServer();
    try {
      await rpc(stack().rpcUrl, "hardhat_mine", ["0x1f4"]);
      proxy.seen.length = 0;
      await server.services.indexer.syncOnce();
      const logs = proxy.calls("eth_getLogs");
      expect(logs.flatMap((s) => s.logs ?? []).filter((l) => l.refused)).to.deep.equal([]);
      expect(logs.length).to.equal(50);
      expect(proxy.seen.filter((s) => s.blocks?.includes("latest")).length, "tip reads").to.equal(1);
      // The poll's tip; the first range's request reads the checkpoint's header again, which is the reorganisation check.
      expect(proxy.seen.length).to.equal(50 + 1);
      expect(await indexKeys(server.services.db.db)).to.deep.equal(await chainKeys());
    } finally {
      await server.close();
    }
  });

  it("ranges with events cost no request of their own: their blocks are read with the next range's logs", async () => {
    const server = await caughtUpServer();
    const token = USDX__factory.connect(readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir }).proxy, seeded("alice"));
    try {
      // A transfer every 10th block over 200 blocks: every range has an event.
      for (let i = 0; i < 20; i++) {
        await (await token.transfer(randomAddress(), parseUnits("1", 18))).wait();
        await rpc(stack().rpcUrl, "hardhat_mine", ["0x9"]);
      }
      proxy.seen.length = 0;
      await server.services.indexer.syncOnce();
      const ranges = proxy.calls("eth_getLogs").length;
      expect(ranges).to.be.within(20, 21);
      // Each range's eth_getLogs, plus the poll's tip and the last range's block reads.
      expect(proxy.seen.length).to.be.at.most(ranges + 2);
      expect(await indexKeys(server.services.db.db)).to.deep.equal(await chainKeys());
    } finally {
      await server.close();
    }
  });

  it("a provider that takes batches of at most 100 calls: a larger batch is sent again in batches of 100, and batches go on", async () => {
    proxy.settings = { batchMaxCalls: 100 };
    const calls = new BatchCalls(new RpcTransport(proxy.url), 60_000);
    const reads = Array.from({ length: 250 }, (_, n) => ({ method: "eth_getBlockByNumber", params: [toQuantity(n % 20), false] }));
    proxy.seen.length = 0;
    const answers = await calls.many<{ number: string }>(reads);
    expect(answers.map((a) => (a.ok ? Number(a.result.number) : a.error.message))).to.deep.equal(reads.map((_, n) => n % 20));
    expect(proxy.seen.map((s) => [s.methods.length, s.batchRefused ?? false])).to.deep.equal([
      [250, true],
      [100, false],
      [100, false],
      [50, false],
    ]);
    expect(calls.batches).to.equal(true);
    // From then on, batches of 100 at once.
    proxy.seen.length = 0;
    await calls.many(reads.slice(0, 150));
    expect(proxy.seen.map((s) => s.methods.length)).to.deep.equal([100, 50]);
  });

  it("a provider that refuses batches: found at the first batch, then the same calls one by one, and the index equals the chain", async () => {
    const server = await caughtUpServer();
    const token = USDX__factory.connect(readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir }).proxy, seeded("alice"));
    try {
      proxy.settings = { ...proxy.settings, batches: false };
      for (let i = 0; i < 5; i++) {
        await (await token.transfer(randomAddress(), parseUnits("1", 18))).wait();
        await rpc(stack().rpcUrl, "hardhat_mine", ["0x9"]);
      }
      proxy.seen.length = 0;
      await server.services.indexer.syncOnce();
      expect(server.services.chain.calls.batches).to.equal(false);
      const batched = proxy.seen.filter((s) => s.methods.length > 1);
      // The one batch that found out; every request after it carries one call.
      expect(batched.length).to.equal(1);
      expect(batched[0].status).to.not.equal(200);
      expect(await indexKeys(server.services.db.db)).to.deep.equal(await chainKeys());
    } finally {
      await server.close();
    }
  });
});
