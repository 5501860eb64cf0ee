import { expect } from "chai";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseUnits } from "ethers";
import { USDX__factory } from "@bindings";
import { manifestPath, readManifest, writeManifest } from "@common/manifestFile";
import { LOCAL_CHAIN } from "@common/networks";
import { HttpError } from "../src/lib/errors";
import { httpNode, snapshotCommand } from "../src/services/scenarios/snapshotCommand";
import {
  KEPT_ACROSS_RESTORE,
  type NodeRpc,
  type SnapshotOptions,
  SnapshotGone,
  listSnapshots,
  readStore,
  restoreSnapshot,
  storePath,
  takeSnapshot,
} from "../src/services/scenarios/snapshots";
import { startNode, startStandIn, waitForChain, type RunningNode } from "../../scripts/lib/standIn";
import { provider, randomAddress, revert, seeded, snapshot, stack } from "./helpers";
import { rpc } from "./stack";

/**
 * Issue 31, part 3: named snapshots of the local node (evm_snapshot / evm_revert), kept beside the
 * manifest, returned to as often as wanted; those the node no longer has are refused and leave the
 * list; bad names and other chains are refused before anything is sent.
 */

/** The node, with every method sent to it noted (a spy on the real node, not a stand-in for it). */
function recorded(node: NodeRpc): NodeRpc & { methods: string[] } {
  const methods: string[] = [];
  return {
    methods,
    send: (method, params) => {
      methods.push(method);
      return node.send(method, params);
    },
  };
}

/** A deployments directory of the test's own, holding a copy of the stack's manifest. */
function deploymentsCopy(): { options: SnapshotOptions & { env: NodeJS.ProcessEnv }; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), "usdx-snapshots-"));
  const env = { DEPLOYMENTS_DIR: path.join(dir, "deployments") };
  mkdirSync(env.DEPLOYMENTS_DIR);
  copyFileSync(manifestPath("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir }), manifestPath("localhost", env));
  return { options: { env }, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What a call refuses with: the HttpError's status and sentence. */
async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await promise.then(
    () => expect.fail("it was not refused"),
    (e: unknown) => e,
  );
  expect(error).to.be.instanceOf(HttpError);
  return { status: (error as HttpError).status, message: (error as HttpError).message };
}

describe("named snapshots: take, restore, list (issue 31)", function () {
  this.timeout(120_000);
  let outer: string;
  let deployments: ReturnType<typeof deploymentsCopy>;
  const node = () => provider();
  const usdx = () => USDX__factory.connect(readManifest("localhost", deployments.options.env).proxy, provider());
  const balanceOf = (address: string) => usdx().balanceOf(address);
  const send = async (amount: string) => {
    await (await usdx().connect(seeded("alice")).transfer(seeded("bob").address, parseUnits(amount, 18))).wait();
  };

  beforeEach(async () => {
    outer = await snapshot();
    deployments = deploymentsCopy();
  });
  afterEach(async () => {
    await revert(outer);
    deployments.remove();
  });

  describe("takeSnapshot and restoreSnapshot", () => {
    it("returns the chain to the snapshot: the balance is the earlier one, and the snapshot's block is the chain's again", async () => {
      const bob = seeded("bob").address;
      const before = await balanceOf(bob);
      const taken = await takeSnapshot(node(), "before-send", deployments.options);
      expect(taken.name).to.equal("before-send");
      expect(taken.blockNumber).to.equal(await provider().getBlockNumber());
      const hashThen = (await provider().getBlock(taken.blockNumber))!.hash;
      await send("12");
      expect((await balanceOf(bob)) > before).to.equal(true);

      const progress: string[] = [];
      const restored = await restoreSnapshot(
        node(),
        "before-send",
        (p) => progress.push(`${p.done}/${p.total} ${p.label}`),
        deployments.options,
      );
      expect(await balanceOf(bob)).to.equal(before);
      expect((await provider().getBlock(taken.blockNumber))!.hash).to.equal(hashThen);
      // One empty block on it, so pushed heads and wallets see the change.
      expect(restored.head).to.equal(taken.blockNumber + 1);
      expect(await provider().getBlockNumber()).to.equal(taken.blockNumber + 1);
      expect((await provider().getBlock(restored.head))!.transactions).to.have.length(0);
      expect(progress.map((p) => p.split(" ")[0])).to.deep.equal(["0/4", "1/4", "2/4", "3/4", "4/4"]);
    });

    it("returns to the same name again and again: each restore keeps it", async () => {
      const bob = seeded("bob").address;
      const before = await balanceOf(bob);
      await takeSnapshot(node(), "again", deployments.options);
      for (const amount of ["1", "2", "3"]) {
        await send(amount);
        expect(await balanceOf(bob)).not.to.equal(before);
        await restoreSnapshot(node(), "again", undefined, deployments.options);
        expect(await balanceOf(bob)).to.equal(before);
      }
      expect((await listSnapshots(node(), deployments.options)).map((s) => s.name)).to.deep.equal(["again"]);
    });

    it("drops the snapshots taken after the one restored (the node discards them: reverting to one answers false)", async () => {
      await takeSnapshot(node(), "first", deployments.options);
      await send("1");
      await takeSnapshot(node(), "second", deployments.options);
      await send("1");
      await takeSnapshot(node(), "third", deployments.options);
      const destroyed = readStore(deployments.options).third.id;

      const restored = await restoreSnapshot(node(), "first", undefined, deployments.options);
      expect(restored.discarded).to.deep.equal(["second", "third"]);
      expect((await listSnapshots(node(), deployments.options)).map((s) => s.name)).to.deep.equal(["first"]);
      // Hardhat's own behaviour, which the list follows: the later id is gone.
      expect(await rpc(stack().rpcUrl, "evm_revert", [destroyed])).to.equal(false);
      const gone = await refusal(restoreSnapshot(node(), "second", undefined, deployments.options));
      expect(gone).to.deep.equal({ status: 404, message: "There is no snapshot named 'second'. Saved snapshots: first." });
    });

    it("keeps an earlier snapshot when a later one is restored, and can still return to it", async () => {
      const bob = seeded("bob").address;
      const atEarly = await balanceOf(bob);
      await takeSnapshot(node(), "early", deployments.options);
      await send("1");
      const atLate = await balanceOf(bob);
      await takeSnapshot(node(), "late", deployments.options);
      await send("1");
      await restoreSnapshot(node(), "late", undefined, deployments.options);
      expect(await balanceOf(bob)).to.equal(atLate);
      expect((await listSnapshots(node(), deployments.options)).map((s) => s.name)).to.deep.equal(["early", "late"]);
      await restoreSnapshot(node(), "early", undefined, deployments.options);
      expect(await balanceOf(bob)).to.equal(atEarly);
      // 'late' was taken again after 'early' (at its restore): returning to 'early' discards it.
      expect((await listSnapshots(node(), deployments.options)).map((s) => s.name)).to.deep.equal(["early"]);
    });

    it("keeps the list beside the manifest, and writes the manifest back as it was when the snapshot was taken", async () => {
      const { env } = deployments.options;
      const original = readFileSync(manifestPath("localhost", env), "utf8");
      await takeSnapshot(node(), "with-manifest", deployments.options);
      expect(storePath(deployments.options)).to.equal(path.join(env.DEPLOYMENTS_DIR!, `${LOCAL_CHAIN.network}.snapshots.json`));
      expect(readStore(deployments.options)["with-manifest"].manifest).to.deep.equal(JSON.parse(original));
      // A scenario names a Safe after the snapshot.
      const manifest = readManifest("localhost", env);
      writeManifest({ ...manifest, safes: [...(manifest.safes ?? []), { name: "Later Safe", address: randomAddress() }] }, env);

      await restoreSnapshot(node(), "with-manifest", undefined, deployments.options);
      expect(readFileSync(manifestPath("localhost", env), "utf8")).to.equal(original);
    });

    it("replaces a snapshot taken again under the same name", async () => {
      const first = await takeSnapshot(node(), "moving", deployments.options);
      await send("1");
      const second = await takeSnapshot(node(), "moving", deployments.options);
      expect(second.blockNumber).to.equal(first.blockNumber + 1);
      const bob = seeded("bob").address;
      const atSecond = await balanceOf(bob);
      await send("1");
      await restoreSnapshot(node(), "moving", undefined, deployments.options);
      expect(await balanceOf(bob)).to.equal(atSecond);
    });
  });

  describe("refusals", () => {
    it("refuses a bad name with a sentence, sending nothing", async () => {
      for (const name of ["", "has space", "semi;colon", "../up", "é", "x".repeat(41)]) {
        const spy = recorded(node());
        for (const attempt of [takeSnapshot(spy, name, deployments.options), restoreSnapshot(spy, name, undefined, deployments.options)]) {
          const { status, message } = await refusal(attempt);
          expect(status).to.equal(400);
          expect(message).to.equal(
            `'${name}' is not a snapshot name: use 1 to 40 letters, digits, - or _ (for example before-batch or paused_2).`,
          );
        }
        expect(spy.methods, name).to.deep.equal([]);
      }
      expect(existsSync(storePath(deployments.options))).to.equal(false);
      // The longest name that is allowed.
      expect((await takeSnapshot(node(), "A-z_09".padEnd(40, "x"), deployments.options)).name).to.have.length(40);
    });

    it("refuses a name it does not have, naming those it has", async () => {
      expect(await refusal(restoreSnapshot(node(), "nothing", undefined, deployments.options))).to.deep.equal({
        status: 404,
        message: "There is no snapshot named 'nothing'. None is saved yet.",
      });
    });

    it("refuses a node on another chain (the stand-in Sepolia) with a sentence, sending nothing but eth_chainId", async function () {
      this.timeout(120_000);
      const sepolia = await startStandIn();
      try {
        const spy = recorded(httpNode(sepolia.url));
        const idsBefore = await rpc<string>(sepolia.url, "evm_snapshot");
        for (const attempt of [
          takeSnapshot(spy, "fine-name", deployments.options),
          restoreSnapshot(spy, "fine-name", undefined, deployments.options),
          listSnapshots(spy, deployments.options),
        ]) {
          const { status, message } = await refusal(attempt);
          expect(status).to.equal(403);
          expect(message).to.equal(
            "Snapshots are for the local chain only (chain 31337): this node is on chain 11155111 (Sepolia). Nothing was sent.",
          );
        }
        expect(spy.methods).to.deep.equal(["eth_chainId", "eth_chainId", "eth_chainId"]);
        // No snapshot was taken on it: the next id follows the test's own.
        expect(BigInt(await rpc<string>(sepolia.url, "evm_snapshot"))).to.equal(BigInt(idsBefore) + 1n);
        expect(existsSync(storePath(deployments.options))).to.equal(false);
      } finally {
        await sepolia.stop();
      }
    });

    describe("a snapshot of an earlier run of the node", () => {
      let first: RunningNode;
      let second: RunningNode;
      afterEach(async () => {
        await Promise.all([first?.stop(), second?.stop()]);
      });

      it("is refused as gone, leaves the list, and the node is not reverted (its own snapshot with the same id still works)", async function () {
        this.timeout(150_000);
        first = await startNode([]);
        await waitForChain(first.url, LOCAL_CHAIN.chainId, first.child);
        for (let i = 0; i < 3; i++) await rpc(first.url, "evm_mine");
        const stale = await takeSnapshot(httpNode(first.url), "old-run", deployments.options);
        await first.stop();

        // The node again (a new run): its own snapshot gets the same id the stale one has.
        second = await startNode([]);
        await waitForChain(second.url, LOCAL_CHAIN.chainId, second.child);
        for (let i = 0; i < 5; i++) await rpc(second.url, "evm_mine");
        const fresh = await takeSnapshot(httpNode(second.url), "new-run", deployments.options);
        const store = readStore(deployments.options);
        expect(store["new-run"].id).to.equal(store["old-run"].id);
        await rpc(second.url, "evm_mine");
        const head = await rpc<{ hash: string }>(second.url, "eth_getBlockByNumber", ["latest", false]);

        const spy = recorded(httpNode(second.url));
        const error = await restoreSnapshot(spy, "old-run", undefined, deployments.options).catch((e: unknown) => e);
        expect(error).to.be.instanceOf(SnapshotGone);
        expect((error as SnapshotGone).status).to.equal(410);
        expect((error as SnapshotGone).message).to.equal(
          `The snapshot 'old-run' is gone: block ${stale.blockNumber} on this node is not the block it was taken at (the node was restarted or reset since). It was removed from the list; take a new one.`,
        );
        expect(spy.methods).not.to.include("evm_revert");
        expect((await rpc<{ hash: string }>(second.url, "eth_getBlockByNumber", ["latest", false])).hash).to.equal(head.hash);
        expect((await listSnapshots(httpNode(second.url), deployments.options)).map((s) => s.name)).to.deep.equal(["new-run"]);
        // The id both records share is still this node's own snapshot: the refusal consumed nothing.
        await restoreSnapshot(httpNode(second.url), "new-run", undefined, deployments.options);
        const back = await rpc<{ hash: string }>(second.url, "eth_getBlockByNumber", [`0x${fresh.blockNumber.toString(16)}`, false]);
        expect(back.hash).to.equal(readStore(deployments.options)["new-run"].blockHash);
      });
    });

    it("lists only the snapshots the node still has (the list is pruned when read with the node)", async () => {
      await takeSnapshot(node(), "kept", deployments.options);
      const store = readStore(deployments.options);
      // A record as an earlier run of the node left it: a block this chain has with another hash.
      store.stale = { ...store.kept, blockHash: `0x${"ab".repeat(32)}` };
      writeFileSync(storePath(deployments.options), JSON.stringify(store));
      expect((await listSnapshots(undefined, deployments.options)).map((s) => s.name)).to.have.members(["kept", "stale"]);
      expect((await listSnapshots(node(), deployments.options)).map((s) => s.name)).to.deep.equal(["kept"]);
      expect(Object.keys(readStore(deployments.options))).to.deep.equal(["kept"]);
    });
  });

  describe("snapshotCommand (npm run scenario -- snapshot | restore | snapshots)", () => {
    const run = async (...argv: string[]) => {
      const lines: string[] = [];
      const code = await snapshotCommand(argv, (line) => lines.push(line), { ...deployments.options, node: node() });
      return { code, lines };
    };

    it("takes, lists and restores, saying what the database keeps", async () => {
      const empty = await run("snapshots");
      expect(empty).to.deep.equal({ code: 0, lines: ["No snapshots yet. Take one with: npm run scenario -- snapshot <name>"] });
      const head = await provider().getBlockNumber();
      const taken = await run("snapshot", "demo");
      expect(taken).to.deep.equal({
        code: 0,
        lines: [`Snapshot 'demo' taken at block ${head}. Return to it with: npm run scenario -- restore demo`],
      });
      const listed = await run("snapshots");
      expect(listed.code).to.equal(0);
      expect(listed.lines).to.have.length(1);
      expect(listed.lines[0]).to.match(new RegExp(`^demo +block ${head} +taken \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC$`));

      await send("1");
      await run("snapshot", "later");
      const restored = await run("restore", "demo");
      expect(restored.code).to.equal(0);
      expect(restored.lines.slice(0, 5).map((l) => l.trim().split(" ")[0])).to.deep.equal(["0/4", "1/4", "2/4", "3/4", "4/4"]);
      expect(restored.lines.slice(5)).to.deep.equal([
        restored.lines[5],
        "Snapshots taken after it are gone (the node discards them on a restore): later.",
        KEPT_ACROSS_RESTORE,
      ]);
      expect(restored.lines[5]).to.match(
        new RegExp(`^Restored 'demo': the chain is back at block ${head}, as it was at .+ UTC; the empty block ${head + 1} follows it\\.$`),
      );
      expect(KEPT_ACROSS_RESTORE).to.equal(
        "Contacts, bank accounts and batch jobs' records live in the API's database, not on the chain, and are kept; the server re-reads the chain within a poll.",
      );
    });

    it("refuses with a sentence and exit code 2: a bad name, an unknown snapshot, a wrong command, no node", async () => {
      expect(await run("snapshot", "no good")).to.deep.equal({
        code: 2,
        lines: ["'no good' is not a snapshot name: use 1 to 40 letters, digits, - or _ (for example before-batch or paused_2)."],
      });
      expect(await run("restore", "missing")).to.deep.equal({
        code: 2,
        lines: ["There is no snapshot named 'missing'. None is saved yet."],
      });
      for (const argv of [["restore"], ["snapshot", "a", "b"], ["snapshots", "x"], ["revert", "x"]]) {
        const { code, lines } = await run(...argv);
        expect(code, argv.join(" ")).to.equal(2);
        expect(lines[0]).to.equal("Snapshots of the local node, to return to:");
      }
      const lines: string[] = [];
      const code = await snapshotCommand(["snapshots"], (line) => lines.push(line), {
        env: { ...deployments.options.env, LOCAL_RPC_PORT: "9" },
      });
      expect(code).to.equal(2);
      expect(lines[0]).to.match(
        /^No node answers at http:\/\/127\.0\.0\.1:9 \(.+\): start the local stack with npm start, or set LOCAL_RPC_PORT\.$/,
      );
    });
  });
});
