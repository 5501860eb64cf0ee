import fc from "fast-check";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { network } from "hardhat";
import { deployFixture } from "../helpers/fixtures";
import { batchArb, newStats, runBatch, runSequence, sequenceArb } from "./model";

/**
 * [property] Random call sequences against the model (test/invariants/model.ts). `npm test` runs a
 * CI-sized count; `npm run bench:invariants` runs 1,000 and more. PROPERTY_RUNS sets the count,
 * PROPERTY_SEED replays a failure (fast-check prints the seed and the shrunk sequence).
 */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 25);
const SEED = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : undefined;

describe("[property] USDX and BatchPayments under random sequences", function () {
  this.timeout(600_000);

  /** Each run starts from the fixture's snapshot and leaves the chain as it found it. */
  async function isolated<T>(run: (f: Awaited<ReturnType<typeof deployFixture>>) => Promise<T>): Promise<T> {
    const f = await loadFixture(deployFixture);
    const id = await network.provider.send("evm_snapshot");
    try {
      return await run(f);
    } finally {
      await network.provider.send("evm_revert", [id]);
    }
  }

  it("keeps shares, balances and supply consistent, and every revert is the model's custom error", async () => {
    const stats = newStats();
    await fc.assert(
      fc.asyncProperty(sequenceArb(20), (actions) => isolated((f) => runSequence(f, actions, stats))),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it("a batch payment pays each recipient exactly, takes exactly the total from the payer, and keeps nothing", async () => {
    const stats = newStats();
    await fc.assert(
      fc.asyncProperty(batchArb, (c) => isolated((f) => runBatch(f, c, stats))),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
