import { expect } from "chai";
import { rmSync } from "node:fs";
import { parseUnits } from "ethers";
import { USDX__factory } from "@bindings";
import { readManifest } from "@common/manifestFile";
import { seededAccount } from "@common/seedAccounts";
import type { HistoryEntry } from "@common/apiTypes";
import { BatchCalls } from "../src/chain/batchCalls";
import { RpcTransport } from "../src/chain/rpcTransport";
import { chainEvents, indexedBlocks } from "../src/db/schema";
import { call, mine, provider, revert, signer, snapshot, stack, startTestServer, chainKeys, indexKeys } from "./helpers";
import { migratedDataDir } from "./dataDirs";

const usdx = () => USDX__factory.connect(readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir }).proxy, provider());

async function transfer(from: string, to: string, amount: string) {
  const s = await signer(seededAccount(from).index);
  const receiver = await (await signer(seededAccount(to).index)).getAddress();
  return (await usdx().connect(s).transfer(receiver, parseUnits(amount, 18))).wait();
}

describe("Event indexer", () => {
  it("indexes every event of the deployment, with the chain's block hashes", async () => {
    const server = await startTestServer();
    try {
      expect(await indexKeys(server.services.db.db)).to.deep.equal(await chainKeys());
    } finally {
      await server.close();
    }
  });

  it("resumes from its checkpoint after a restart, storing nothing twice", async () => {
    const dir = await migratedDataDir("usdx-pglite-");
    const id = await snapshot();
    try {
      const first = await startTestServer({ PGLITE_DIR: dir });
      const checkpoint = first.services.indexer.status().checkpoint!;
      await first.close();
      await transfer("alice", "bob", "1");
      await transfer("bob", "carol", "2");
      const second = await startTestServer({ PGLITE_DIR: dir });
      try {
        const rows = await second.services.db.db.select().from(chainEvents);
        expect(rows.filter((r) => r.blockNumber > checkpoint)).to.have.length(2);
        expect(await indexKeys(second.services.db.db)).to.deep.equal(await chainKeys());
      } finally {
        await second.close();
      }
    } finally {
      await revert(id);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("rewinds on a reorg (evm_snapshot / evm_revert): the abandoned fork's events go, the new fork's come", async () => {
    const server = await startTestServer();
    // A snapshot is spent by its revert: `outer` undoes the new fork too, for the files after this one.
    const outer = await snapshot();
    const id = await snapshot();
    try {
      await transfer("alice", "bob", "3");
      await transfer("alice", "carol", "4");
      await server.services.indexer.syncOnce();
      const abandoned = await indexKeys(server.services.db.db);
      await revert(id);
      await mine(); // the new fork: an empty block, then a different transfer at the same heights
      await transfer("bob", "alice", "5");
      await server.services.indexer.syncOnce();
      const now = await indexKeys(server.services.db.db);
      expect(now).to.deep.equal(await chainKeys());
      expect(now.filter((k) => abandoned.includes(k))).to.have.length(abandoned.length - 2);
      const history = await call(server, "GET", `/api/accounts/${await (await signer(seededAccount("carol").index)).getAddress()}/history`);
      expect(history.body.items.map((i: HistoryEntry) => i.amount)).not.to.include("4");
      const blocks = await server.services.db.db.select().from(indexedBlocks);
      for (const b of blocks) expect((await provider().getBlock(b.blockNumber))!.hash).to.equal(b.blockHash);
    } finally {
      await server.close();
      await revert(outer);
    }
  });

  it("keeps answering from the index while the node is unreachable, and reports it", async () => {
    const server = await startTestServer({ RPC_URL: `http://127.0.0.1:${stack().rpcPort}` });
    try {
      const original = server.services.chain.provider;
      const originalCalls = server.services.chain.calls;
      // Point the chain client (ethers' provider, and the indexer's batched calls) at a closed port, as if the node went away.
      const { JsonRpcProvider } = await import("ethers");
      (server.services.chain as { calls: BatchCalls }).calls = new BatchCalls(
        new RpcTransport("http://127.0.0.1:9", { budgetMs: 1000, attemptTimeoutMs: 500 }),
        1000,
      );
      (server.services.chain as { provider: InstanceType<typeof JsonRpcProvider> }).provider = new JsonRpcProvider(
        "http://127.0.0.1:9",
        31337,
        {
          staticNetwork: true,
          cacheTimeout: -1,
        },
      );
      await server.services.indexer.syncOnce().catch(() => undefined);
      const health = await call(server, "GET", "/api/health");
      expect(health.status).to.equal(503);
      expect(health.body.chain).to.deep.equal({ ok: false, error: `the RPC node at http://127.0.0.1:${stack().rpcPort} is not answering` });
      const events = await call(server, "GET", "/api/events");
      expect(events.status).to.equal(200);
      (server.services.chain as { provider: typeof original }).provider = original;
      (server.services.chain as { calls: BatchCalls }).calls = originalCalls;
      // /api/health reports the head the indexer reads: its next step finds the node again.
      await server.services.indexer.syncOnce();
      const back = await call(server, "GET", "/api/health");
      expect(back.body.chain.ok).to.equal(true);
    } finally {
      await server.close();
    }
  });
});
