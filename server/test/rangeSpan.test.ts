import { expect } from "chai";
import { RpcError } from "../src/chain/rpcTransport";
import { createLogger } from "../src/lib/logger";
import { RangeSpan } from "../src/services/indexing/ranges";

/**
 * Issue 30, item 2: the span a refusal leaves. A limit the provider states caps the span; a refusal
 * that names nothing (a timeout) caps it just under what was refused, not at its halving, so
 * spurious timeouts cannot ratchet the span down to one block.
 */
describe("RangeSpan: the eth_getLogs span after a refusal", () => {
  const log = createLogger("silent");
  const refusal = (message: string) => new RpcError("eth_getLogs", -32000, message);
  const timeout = refusal("Query timeout exceeded. Consider reducing your block range.");

  it("a timeout halves the span, which then grows back to just under what was refused", () => {
    const span = new RangeSpan(64, log);
    span.shrinkAfter(timeout, 1, 64);
    expect(span.blocks).to.equal(32);
    span.grow();
    expect(span.blocks).to.equal(63);
    span.grow();
    expect(span.blocks).to.equal(63);
  });

  it("ten timeouts in a row at the span reached leave it at 54 blocks, not one", () => {
    const span = new RangeSpan(64, log);
    for (let i = 0; i < 10; i++) {
      const asked = span.blocks;
      span.shrinkAfter(timeout, 1000, 1000 + asked - 1);
      for (let g = 0; g < 6; g++) span.grow();
    }
    expect(span.blocks).to.equal(54);
  });

  it("a limit the provider states is the ceiling", () => {
    const span = new RangeSpan(2000, log);
    span.shrinkAfter(refusal("Under the Free tier plan, you can make eth_getLogs requests with up to a 10 block range."), 1, 2000);
    expect(span.blocks).to.equal(10);
    span.grow();
    expect(span.blocks).to.equal(10);
  });

  it("a results refusal sets no ceiling: the span doubles back to the maximum", () => {
    const span = new RangeSpan(64, log);
    span.shrinkAfter(refusal("query returned more than 10000 results"), 1, 64);
    expect(span.blocks).to.equal(32);
    span.grow();
    expect(span.blocks).to.equal(64);
  });
});
