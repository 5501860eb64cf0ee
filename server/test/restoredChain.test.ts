import { expect } from "chai";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getAddress, parseUnits, type HDNodeWallet } from "ethers";
import { BatchPayments__factory, USDX__factory } from "@bindings";
import type { BankWallet, ChunkDetail, HolderPage, RecipientDetail, Rewards } from "@common/apiTypes";
import { manifestPath } from "@common/manifestFile";
import { HEADS_SAFETY_NET_MS } from "../src/chain/heads";
import type { RunningServer } from "../src/index";
import { restoreSnapshot, takeSnapshot, type SnapshotOptions } from "../src/services/scenarios/snapshots";
import {
  BatchPlan,
  call,
  chainKeys,
  emailUser,
  indexKeys,
  provider,
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

/**
 * Issue 31, part 3: the server follows a restored snapshot as it follows a reorganisation. A
 * restore takes the node back to a lower block, and the blocks after it come again at the same
 * heights with other hashes: within a poll (a bounded wait on each condition, never a sleep) the
 * index is the chain's event by event, GET /api/holders is balanceOf, the rewards are as they were
 * at the snapshot, and a batch chunk paid after the snapshot is open again.
 */

/** A deployments directory of the test's own (the snapshots' list, the manifest written back), with the stack's manifest. */
function deploymentsCopy(): { options: SnapshotOptions; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), "usdx-snapshots-"));
  const env = { DEPLOYMENTS_DIR: path.join(dir, "deployments") };
  mkdirSync(env.DEPLOYMENTS_DIR);
  copyFileSync(manifestPath("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir }), manifestPath("localhost", env));
  return { options: { env }, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const usdxOf = (server: RunningServer, wallet: HDNodeWallet) => USDX__factory.connect(server.services.chain.manifest.proxy, wallet);

/** Every address a Transfer on the chain touched, with balanceOf now (the holders: those above 0). */
async function chainHolders(server: RunningServer): Promise<Record<string, string>> {
  const usdx = USDX__factory.connect(server.services.chain.manifest.proxy, provider());
  const logs = await usdx.queryFilter(usdx.filters.Transfer(), server.services.chain.manifest.deploymentBlock);
  const addresses = new Set(logs.flatMap((l) => [l.args.from, l.args.to]).map((a) => getAddress(a)));
  const held: Record<string, string> = {};
  for (const address of addresses) {
    const balance = await usdx.balanceOf(address);
    if (balance > 0n) held[address] = balance.toString();
  }
  return held;
}

/** GET /api/holders, every page, as address -> balance. */
async function apiHolders(server: RunningServer, token: string): Promise<Record<string, string>> {
  const held: Record<string, string> = {};
  for (let offset = 0; ; offset += 500) {
    const page = (await call(server, "GET", `/api/holders?limit=500&offset=${offset}&sort=address`, { token })).body as HolderPage;
    for (const h of page.holders) held[getAddress(h.address)] = h.balance;
    if (page.holders.length < 500) return held;
  }
}

/** Holders as [address, balance] pairs in address order, to compare. */
const sorted = (held: Record<string, string>) => Object.entries(held).sort(([a], [b]) => a.localeCompare(b));

const rewardsOf = async (server: RunningServer, token: string, address: string) =>
  (await call(server, "GET", `/api/rewards/${address}`, { token })).body as Rewards;

describe("a restored snapshot: the server follows the chain back (issue 31)", function () {
  this.timeout(180_000);
  let outer: string;
  let deployments: ReturnType<typeof deploymentsCopy>;
  before(async () => {
    outer = await snapshot();
    deployments = deploymentsCopy();
  });
  after(async () => {
    await revert(outer);
    deployments.remove();
  });

  describe("a server that polls", () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({ BATCH_CHUNK_SIZE: "1" });
    });
    after(async () => {
      await server.close();
    });

    it("within a poll has the chain's index, holders and rewards again, and the chunk paid after the snapshot is open again", async () => {
      const alice = seeded("alice");
      const token = (await walletUser(server, alice as never)).idToken;
      const { batchPayments } = server.services.chain.manifest;
      const plan = (
        await call(server, "POST", "/api/batch/execute", { token, body: { recipients: [randomAddress(), randomAddress()], amount: "3" } })
      ).body as BatchPlan;
      expect(plan.chunks).to.have.length(2);
      await (await usdxOf(server, alice).approve(batchPayments, BigInt(plan.totalAmountRaw))).wait();
      const pay = async (i: number) => {
        const c = plan.chunks[i];
        const tx = await BatchPayments__factory.connect(batchPayments, alice).pay(c.recipients, c.amounts, c.reference);
        await tx.wait();
        expect(
          (await call(server, "POST", `/api/batch/${plan.jobId}/transactions`, { token, body: { chunkIndex: i, txHash: tx.hash } })).status,
        ).to.equal(200);
      };
      const job = async () => {
        const body = (await call(server, "GET", `/api/batch/${plan.jobId}`, { token })).body;
        return {
          status: body.job.status as string,
          chunks: body.chunks as ChunkDetail[],
          recipients: body.recipients as RecipientDetail[],
        };
      };
      await pay(0);
      await until("the first chunk to be paid", job, (j) => j.chunks[0].status === "confirmed");
      await untilIndexEqualsChain(server.services.db.db, "the index to hold the chain before the snapshot");
      const holders = await apiHolders(server, token);
      expect(sorted(holders)).to.deep.equal(sorted(await chainHolders(server)));
      const bob = seeded("bob").address;
      const rewardsBefore = await rewardsOf(server, token, bob);

      await takeSnapshot(provider(), "before-changes", deployments.options);
      const keysAtSnapshot = await chainKeys();

      // After the snapshot: a transfer, the second chunk paid, a mint, a multiplier change (bob's rewards move).
      await (await usdxOf(server, alice).transfer(bob, parseUnits("7", 18))).wait();
      await pay(1);
      await (await usdxOf(server, seeded("minter")).mint(seeded("carol").address, parseUnits("1234", 18))).wait();
      await (await usdxOf(server, seeded("oracle")).setRewardMultiplier(parseUnits("1.2", 18))).wait();
      await until("the second chunk to be paid", job, (j) => j.status === "completed");
      await untilIndexEqualsChain(server.services.db.db, "the index to hold the changes");
      expect((await rewardsOf(server, token, bob)).allTime).not.to.equal(rewardsBefore.allTime);
      expect(sorted(await apiHolders(server, token))).not.to.deep.equal(sorted(holders));

      await restoreSnapshot(provider(), "before-changes", undefined, deployments.options);

      const keys = await untilIndexEqualsChain(server.services.db.db, "the index to equal the restored chain");
      expect(keys, "the chain's events are the snapshot's").to.deep.equal(keysAtSnapshot);
      const chain = sorted(await chainHolders(server));
      expect(chain).to.deep.equal(sorted(holders));
      await until(
        "GET /api/holders to be balanceOf again",
        async () => sorted(await apiHolders(server, token)),
        (h) => JSON.stringify(h) === JSON.stringify(chain),
      );
      // As of the index's head, which is the restore's empty block now.
      const rewards = await rewardsOf(server, token, bob);
      expect(rewards.asOf?.blockNumber).to.equal(await provider().getBlockNumber());
      expect({ ...rewards, asOf: rewardsBefore.asOf }).to.deep.equal(rewardsBefore);
      const reopened = await until("the second chunk to be open again", job, (j) => j.chunks[1].status !== "confirmed");
      expect(reopened.chunks[0].status, "the chunk paid before the snapshot").to.equal("confirmed");
      expect(reopened.chunks[1].status).to.be.oneOf(["submitted", "failed"]);
      expect(reopened.chunks[1].blockNumber).to.equal(null);
      expect(reopened.recipients.map((r) => r.status)).to.deep.equal(["paid", "pending"]);
      expect(reopened.status).to.not.equal("completed");
    });

    it("restored, then grown past the old head with other blocks: the index equals the chain", async () => {
      const alice = seeded("alice");
      await takeSnapshot(provider(), "short", deployments.options);
      for (let i = 0; i < 3; i++) await (await usdxOf(server, alice).transfer(randomAddress(), 1n)).wait();
      await untilIndexEqualsChain(server.services.db.db, "the index to hold the abandoned blocks");
      const oldHead = await provider().getBlockNumber();
      const abandoned = await indexKeys(server.services.db.db);

      await restoreSnapshot(provider(), "short", undefined, deployments.options);
      for (let i = 0; i < 5; i++) await (await usdxOf(server, alice).transfer(randomAddress(), 2n)).wait();
      expect(await provider().getBlockNumber()).to.be.greaterThan(oldHead);

      const keys = await untilIndexEqualsChain(server.services.db.db, "the index to equal the longer chain");
      expect(keys.filter((k) => !abandoned.includes(k))).to.have.length(5);
    });

    it("a bare evm_revert below the index's checkpoint (the chain only shorter, no new block): the index rewinds to it", async () => {
      const alice = seeded("alice");
      const id = await snapshot();
      const keysAtSnapshot = await chainKeys();
      for (let i = 0; i < 2; i++) await (await usdxOf(server, alice).transfer(randomAddress(), 1n)).wait();
      await untilIndexEqualsChain(server.services.db.db, "the index to hold the blocks above the snapshot");
      const checkpoint = server.services.indexer.status().checkpoint!;
      expect(await revert(id)).to.equal(true);
      expect(await provider().getBlockNumber()).to.be.lessThan(checkpoint);
      expect(await untilIndexEqualsChain(server.services.db.db, "the index to rewind to the shorter chain")).to.deep.equal(keysAtSnapshot);
      await until(
        "the checkpoint to be the chain's head",
        async () => ({ checkpoint: server.services.indexer.status().checkpoint, head: await provider().getBlockNumber() }),
        (now) => now.checkpoint === now.head,
      );
    });

    it("answers a wallet's balance as the restored chain has it, though the head is at a number it was at before", async () => {
      const erin = seeded("erin");
      const token = (await walletUser(server, erin as never)).idToken;
      await (await usdxOf(server, seeded("minter")).mint(erin.address, parseUnits("50", 18))).wait();
      await untilIndexEqualsChain(server.services.db.db);
      const usdx = usdxOf(server, erin);
      // The API's balance and the chain's, read at once.
      const balances = async () => ({
        api: ((await call(server, "GET", "/api/bank/wallets", { token })).body.wallets as BankWallet[])[0].balanceRaw,
        chain: (await usdx.balanceOf(erin.address)).toString(),
      });
      const before = await until("erin's balance", balances, (b) => b.api === b.chain);
      await takeSnapshot(provider(), "erin-before", deployments.options);
      // One block: the restore's empty block comes back at this same height.
      await (await usdx.transfer(randomAddress(), parseUnits("20", 18))).wait();
      const head = await provider().getBlockNumber();
      // Read once the server's loops have read this head: the answer is kept under it.
      await until(
        "the server to read the head",
        async () => server.services.indexer.status().head,
        (h) => h === head,
      );
      const after = await until("erin's balance after her transfer", balances, (b) => b.api === b.chain);
      expect(after.chain).not.to.equal(before.chain);

      await restoreSnapshot(provider(), "erin-before", undefined, deployments.options);
      const restoredAt = Date.now();
      expect(await provider().getBlockNumber()).to.equal(head);
      // Asked once the loops have read the restored head (the empty block at erin's transfer's height), not before.
      await until(
        "the server's loops to read the restored head",
        async () => server.services.indexer.lastHeadRead,
        (read) => read !== null && read.at > restoredAt && read.head === head,
      );
      expect(await balances()).to.deep.equal(before);
    });
  });

  describe("a server that follows pushed heads (RPC_WS_URL, as npm start runs it)", () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({ RPC_WS_URL: stack().rpcUrl.replace(/^http/, "ws") });
      await until(
        "the heads subscription to be live",
        async () => server.services.heads!.live,
        (live) => live,
      );
    });
    after(async () => {
      await server.close();
    });

    it("equals the chain within seconds of a restore, long before its safety-net poll", async () => {
      expect(HEADS_SAFETY_NET_MS).to.be.greaterThan(20_000); // untilIndexEqualsChain gives up after 20 s
      const token = (await emailUser()).idToken;
      await untilIndexEqualsChain(server.services.db.db);
      const keysAtSnapshot = await chainKeys();
      await takeSnapshot(provider(), "pushed", deployments.options);
      await (await usdxOf(server, seeded("alice")).transfer(randomAddress(), 5n)).wait();
      await untilIndexEqualsChain(server.services.db.db, "the transfer to be indexed");

      await restoreSnapshot(provider(), "pushed", undefined, deployments.options);
      expect(await untilIndexEqualsChain(server.services.db.db, "the index to follow the restore")).to.deep.equal(keysAtSnapshot);
      const chain = sorted(await chainHolders(server));
      await until(
        "GET /api/holders to be balanceOf",
        async () => sorted(await apiHolders(server, token)),
        (h) => JSON.stringify(h) === JSON.stringify(chain),
      );
    });
  });
});
