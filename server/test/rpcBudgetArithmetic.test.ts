import { expect } from "chai";
import {
  LOWERED_FOR_MS,
  RECOVERY_STEP_MS,
  RequestBudget,
  TokenBucket,
  lowerAfter429,
  loweredRate,
  type Lowering,
} from "../src/chain/rpcBudget";
import { requestsPerSecondOf } from "../src/config/rpcPlans";

/** The request budget's arithmetic on an injected clock (no wall time): the bucket, a 429's lowering and its recovery. */
describe("The RPC request budget's arithmetic (an injected clock)", () => {
  describe("the token bucket", () => {
    it("holds one second of requests, and after they are spent lets one through every 1/rate seconds", () => {
      const bucket = new TokenBucket(5, 0);
      expect(bucket.capacity).to.equal(5);
      for (let i = 0; i < 5; i++) {
        expect(bucket.waitFor(1, 0), `request ${i}`).to.equal(0);
        bucket.take(1, 0);
      }
      expect(bucket.waitFor(1, 0)).to.equal(200);
      expect(bucket.waitFor(1, 100)).to.equal(100);
      expect(bucket.waitFor(1, 200)).to.equal(0);
    });

    it("never fills past its capacity, however long it sat unused", () => {
      const bucket = new TokenBucket(5, 0);
      expect(bucket.level(3_600_000)).to.equal(5);
    });

    it("a batch larger than a second's worth goes once the bucket is full, and the turns after it repay the excess", () => {
      const bucket = new TokenBucket(5, 0);
      expect(bucket.waitFor(20, 0)).to.equal(0);
      bucket.take(20, 0);
      // 15 requests in debt plus one: 16 turns of 200 ms.
      expect(bucket.waitFor(1, 0)).to.equal(3200);
    });

    it("with no limit, never waits", () => {
      const bucket = new TokenBucket(Infinity, 0);
      bucket.take(1_000_000, 0);
      expect(bucket.waitFor(1_000, 0)).to.equal(0);
    });
  });

  describe("a 429's lowering", () => {
    it("halves the allowed rate, holds it for Retry-After, then doubles every step back to the configured rate", () => {
      const lowering = lowerAfter429(null, 20, 20, 20, 30_000, 1000);
      expect(lowering).to.deep.equal({ rate: 10, ceiling: 20, at: 1000, holdUntil: 31_000 });
      expect(loweredRate(lowering, 30_999)).to.equal(10);
      // One step after the hold: 20, the ceiling: the lowering is over.
      expect(loweredRate(lowering, 31_000)).to.equal(null);
      const twice = lowerAfter429(lowering, 20, 10, 10, null, 5000);
      expect(twice).to.deep.include({ rate: 5, ceiling: 20, holdUntil: 5000 + LOWERED_FOR_MS });
      expect(loweredRate(twice, twice.holdUntil - 1)).to.equal(5);
      expect(loweredRate(twice, twice.holdUntil)).to.equal(10);
      expect(loweredRate(twice, twice.holdUntil + RECOVERY_STEP_MS)).to.equal(null);
    });

    it("a 429 within a second of the last lowering holds it longer but does not halve again (its request was sent before)", () => {
      const first = lowerAfter429(null, 20, 20, 20, 2000, 0);
      const second = lowerAfter429(first, 20, 10, 10, 3000, 500);
      expect(second).to.deep.include({ rate: 10, at: 0, holdUntil: 3500 });
    });

    it("on an unlimited budget, halves what was spent in the last second, and recovers to no limit", () => {
      const lowering = lowerAfter429(null, Infinity, Infinity, 40, 1000, 0);
      expect(lowering).to.deep.include({ rate: 20, ceiling: 40 });
      expect(loweredRate(lowering, 999)).to.equal(20);
      expect(loweredRate(lowering, 1000)).to.equal(null);
    });

    it("never goes below an eighth of the rate it recovers to, however many 429s come (a spent key is kept quiet by its loops, which wait out a long Retry-After)", () => {
      let lowering: Lowering | null = null;
      let rate = 8;
      for (let i = 0; i < 20; i++) {
        lowering = lowerAfter429(lowering, 8, rate, rate, 60_000, i * 2000);
        rate = lowering.rate;
      }
      expect(rate).to.equal(1);
      expect(lowering!.holdUntil).to.equal(19 * 2000 + 60_000);
    });
  });

  describe("the budget", () => {
    it("after a 429, allows half the rate, then the configured rate again once recovered; its status says so", async () => {
      let now = 1_000_000;
      const budget = new RequestBudget(10, "custom", () => now);
      for (let i = 0; i < 10; i++) await budget.take(1, 0);
      expect(budget.status()).to.deep.include({ allowedPerSecond: 10, configuredPerSecond: 10, lowered: null, spentTotal: 10 });
      budget.refused(2000);
      expect(budget.status()).to.deep.include({ allowedPerSecond: 5, lowered: { since: 1_000_000, holdUntil: 1_002_000 } });
      // The bucket was emptied: the next request's turn is 200 ms away, past a call that may not wait.
      const refused = await budget.take(1, 100).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).to.be.an("error");
      expect((refused as { retryAfterMs: number }).retryAfterMs).to.equal(200);
      expect(budget.status().refused).to.equal(1);
      now += 2000;
      expect(budget.status()).to.deep.include({ allowedPerSecond: 10, lowered: null });
    });

    it("an explicit rate wins over the plan's; the local default is no limit", () => {
      expect(requestsPerSecondOf("alchemy-free", undefined)).to.deep.equal({ plan: "alchemy-free", requestsPerSecond: 8 });
      expect(requestsPerSecondOf("alchemy-free", 3)).to.deep.equal({ plan: "custom", requestsPerSecond: 3 });
      expect(requestsPerSecondOf("unlimited", undefined)).to.deep.equal({ plan: "unlimited", requestsPerSecond: null });
    });
  });
});
