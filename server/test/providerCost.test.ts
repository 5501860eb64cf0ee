import { expect } from "chai";
import { getAddress, hexlify, parseUnits, randomBytes } from "ethers";
import { USDX__factory } from "@bindings";
import { readManifest } from "@common/manifestFile";
import { revert, seeded, snapshot, stack, startTestServer, chainKeys, indexKeys } from "./helpers";
import { PROVIDERS, ProviderProxy } from "./providerProxy";
import { rpc } from "./stack";

/**
 * Issue 30, part 1: following the chain costs a hosted provider one request per range. The proxy
 * plays a free plan (10-block eth_getLogs) and counts every HTTP request the server sends; a range
 * costs its eth_getLogs, the head is read once a poll, and a provider that refuses batches gets the
 * same calls one by one.
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

  async function caughtUpServer() {
    proxy.settings = { logs: PROVIDERS.alchemy(RANGE) };
    // The deployment checked every 5 minutes, as on Sepolia (on the local chain every step: two calls more).
    const server = await startTestServer({
      RPC_URL: proxy.url,
      INDEXER_BATCH_BLOCKS: String(RANGE),
      INDEXER_POLL_MS: "600000",
      INDEXER_DEPLOYMENT_CHECK_MS: "300000",
    });
    await server.services.indexer.syncOnce();
    return server;
  }

  it("500 empty blocks on a 10-block plan: 50 eth_getLogs and at most two requests more, the head read once", async () => {
    const server = await caughtUpServer();
    try {
      await rpc(stack().rpcUrl, "hardhat_mine", ["0x1f4"]);
      proxy.seen.length = 0;
      await server.services.indexer.syncOnce();
      const logs = proxy.calls("eth_getLogs");
      expect(logs.flatMap((s) => s.logs ?? []).filter((l) => l.refused)).to.deep.equal([]);
      expect(logs.length).to.equal(50);
      expect(proxy.calls("eth_blockNumber").length).to.equal(1);
      // The poll's first request (the head and the checkpoint's header); the last range pins its end block in its own batch.
      expect(proxy.seen.length).to.be.at.most(50 + 2);
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
      // Each range's eth_getLogs, plus the poll's head request and the last range's block reads.
      expect(proxy.seen.length).to.be.at.most(ranges + 2);
      expect(await indexKeys(server.services.db.db)).to.deep.equal(await chainKeys());
    } finally {
      await server.close();
    }
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
