import { expect } from "chai";
import { RpcError } from "../src/chain/rpcTransport";
import { createLogger } from "../src/lib/logger";
import { RangeSpan } from "../src/services/indexing/ranges";

/**
 * Issue 30, item 2: the span a refusal leaves. A limit the provider states caps the span; a refusal
 * that names nothing (a timeout) caps it just under what was refused, not at its halving, and the
 * span searches back up between what was answered and that, so spurious timeouts cannot ratchet it
 * down to one block and an unnamed limit is found in a few refusals.
 */
describe("RangeSpan: the eth_getLogs span after a refusal", () => {
  const log = createLogger("silent");
  const refusal = (message: string) => new RpcError("eth_getLogs", -32000, message);
  const timeout = refusal("Query timeout exceeded. Consider reducing your block range.");

  /** Answers the span asked, `times` times. */
  const answer = (span: RangeSpan, times = 1) => {
    for (let i = 0; i < times; i++) span.grow(span.blocks);
  };

  it("a first timeout halves the span, which then searches back to within an eighth of what was refused", () => {
    const span = new RangeSpan(64, log);
    span.shrinkAfter(timeout, 1, 64);
    expect(span.blocks).to.equal(32);
    const asked: number[] = [];
    for (let i = 0; i < 5; i++) {
      answer(span);
      asked.push(span.blocks);
    }
    expect(asked).to.deep.equal([48, 56, 60, 60, 60]);
  });

  it("a timeout after wider ranges were answered costs nothing more: the span goes on just under it", () => {
    const span = new RangeSpan(64, log);
    answer(span, 3);
    span.shrinkAfter(timeout, 1000, 1063);
    expect(span.blocks).to.equal(63);
    answer(span, 3);
    expect(span.blocks).to.equal(63);
  });

  it("ten timeouts in a row at the span reached leave it at 51 blocks, not one", () => {
    const span = new RangeSpan(64, log);
    for (let i = 0; i < 10; i++) {
      span.shrinkAfter(timeout, 1000, 1000 + span.blocks - 1);
      answer(span, 6);
    }
    expect(span.blocks).to.equal(51);
  });

  it("an unnamed limit of 64 blocks, from a span of 5,000: found in 8 refusals, at 63", () => {
    const span = new RangeSpan(5000, log);
    let refusals = 0;
    for (let i = 0; i < 40; i++) {
      if (span.blocks > 64) {
        refusals++;
        span.shrinkAfter(timeout, 1, span.blocks);
      } else answer(span);
    }
    expect([refusals, span.blocks]).to.deep.equal([8, 63]);
  });

  it("a limit the provider states is the ceiling", () => {
    const span = new RangeSpan(2000, log);
    span.shrinkAfter(refusal("Under the Free tier plan, you can make eth_getLogs requests with up to a 10 block range."), 1, 2000);
    expect(span.blocks).to.equal(10);
    answer(span);
    expect(span.blocks).to.equal(10);
  });

  it("a results refusal sets no ceiling: the span doubles back to the maximum", () => {
    const span = new RangeSpan(64, log);
    span.shrinkAfter(refusal("query returned more than 10000 results"), 1, 64);
    expect(span.blocks).to.equal(32);
    answer(span);
    expect(span.blocks).to.equal(64);
  });
});
