import { expect } from "chai";
import { RpcError } from "../src/chain/rpcTransport";
import { rangeAdvice, type RangeAdvice } from "../src/services/indexing/logRanges";
import { PROVIDERS, type LogsRefusal } from "./providerProxy";

/**
 * Issue 30, item 2: each provider's words for an eth_getLogs it refuses, and the span the indexer
 * asks for next. Where the refusal names a range that works, its length; where it names a block
 * limit, that many blocks; else half. The words are the providers' own (logRanges.ts says where each
 * was found). A refused eth_getLogs over blocks 1000 to 20,999 (20,000 blocks) in every case.
 */

const FROM = 1000;
const TO = 20_999;
const hex = (n: number) => `0x${n.toString(16)}`;

const advise = (code: number | undefined, message: string, data?: unknown) =>
  rangeAdvice(new RpcError("eth_getLogs", code, message, data), FROM, TO);

describe("The words of each provider's eth_getLogs refusal, and the range asked for next", () => {
  const cases: [string, number, string, RangeAdvice][] = [
    // A range named: its length.
    [
      "Alchemy, a block range (names one that works)",
      -32600,
      `You can make eth_getLogs requests with up to a 500 block range. Based on your parameters, this block range should work: [${hex(FROM)}, ${hex(FROM + 499)}]`,
      { span: 500, stated: true, limit: "range" },
    ],
    [
      "Alchemy, the response size (names one that works)",
      -32602,
      `Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters and the response size limit, this block range should work: [${hex(FROM)}, ${hex(FROM + 41)}]`,
      { span: 42, stated: true, limit: "results" },
    ],
    [
      "Alchemy, the response size in older words (names nothing)",
      -32000,
      "Log response size exceeded. Please reduce query block range.",
      { span: 10_000, stated: false, limit: "results" },
    ],
    [
      "Infura, results (names one that works)",
      -32005,
      `query returned more than 10000 results. Try with this block range [${hex(FROM)}, ${hex(FROM + 1233)}].`,
      { span: 1234, stated: true, limit: "results" },
    ],
    [
      "Infura, results (names nothing)",
      -32005,
      "query returned more than 10000 results",
      { span: 10_000, stated: false, limit: "results" },
    ],
    [
      "Infura, a block range (names the limit)",
      -32602,
      "range 20000 exceeds limit of 10000",
      { span: 10_000, stated: true, limit: "range" },
    ],
    ["Infura, a timeout", -32005, "query timeout exceeded", { span: 10_000, stated: false, limit: "range" }],
    // A limit named: that many blocks.
    ["QuickNode (its 413)", -32614, "eth_getLogs is limited to a 10,000 range", { span: 10_000, stated: true, limit: "range" }],
    [
      "QuickNode, other words",
      -32614,
      "eth_getLogs and eth_newFilter are limited to a 5000 blocks range",
      { span: 5000, stated: true, limit: "range" },
    ],
    ["QuickNode, a free plan's 5 blocks", -32614, "eth_getLogs is limited to a 5 range", { span: 5, stated: true, limit: "range" }],
    ["BlockPI", -32602, "eth_getLogs is limited to 1024 block range", { span: 1024, stated: true, limit: "range" }],
    ["Cloudflare", -32000, "Max range: 800", { span: 800, stated: true, limit: "range" }],
    ["publicnode", -32602, "exceed maximum block range: 50000", { span: 19_999, stated: true, limit: "range" }],
    ["publicnode, a lower limit", -32602, "exceed maximum block range: 5000", { span: 5000, stated: true, limit: "range" }],
    ["reth", -32602, "query exceeds max block range 5000", { span: 5000, stated: true, limit: "range" }],
    [
      "Morph",
      -32000,
      "block range is larger than max block range, block range = 5120, max block range = 5000",
      { span: 5000, stated: true, limit: "range" },
    ],
    ["Tenderly", -32602, "range 9009594 is bigger than range limit 2000", { span: 2000, stated: true, limit: "range" }],
    ["Ankr (TAC)", -32602, "maximum [from, to] blocks distance: 10000", { span: 10_000, stated: true, limit: "range" }],
    ["Moonbeam", -32603, "block range is too wide (maximum 1024)", { span: 1024, stated: true, limit: "range" }],
    ["Coinbase", -32000, "please limit the query to at most 1000 blocks", { span: 1000, stated: true, limit: "range" }],
    [
      "Avalanche",
      -32000,
      "requested too many blocks from 1000 to 20999, maximum is set to 2048",
      { span: 2048, stated: true, limit: "range" },
    ],
    ["thirdweb", -32602, "Maximum allowed number of requested blocks is 1000", { span: 1000, stated: true, limit: "range" }],
    ["dRPC", -32000, "ranges over 10000 blocks are not supported on freetier", { span: 10_000, stated: true, limit: "range" }],
    ["Merkle", -32000, "eth_getLogs range is too large, max is 1k blocks", { span: 1000, stated: true, limit: "range" }],
    // A limit known for words that name none.
    ["Ankr, older words", -32600, "block range is too wide", { span: 3000, stated: true, limit: "range" }],
    [
      "Chainstack (a paid plan's 10,000 for a wide range)",
      -32602,
      "Block range limit exceeded.",
      { span: 10_000, stated: true, limit: "range" },
    ],
    // Nothing named: half.
    ["Ankr, current words", -32000, "query exceeds max results", { span: 10_000, stated: false, limit: "results" }],
    ["Arbitrum", -32000, "logs matched by query exceeds limit of 10000", { span: 10_000, stated: false, limit: "results" }],
    ["Optimism", -32000, "backend response too large", { span: 10_000, stated: false, limit: "results" }],
    ["1rpc", -32000, "response size should not greater than 10000000 bytes", { span: 10_000, stated: false, limit: "results" }],
    ["a generic answer too large", -32000, "response too large", { span: 10_000, stated: false, limit: "results" }],
    ["Base", -32000, "block range too large", { span: 10_000, stated: false, limit: "range" }],
    ["a generic timeout", -32000, "request timed out", { span: 10_000, stated: false, limit: "range" }],
    ["Scroll", -32000, "block range is bigger than maxBlockRange", { span: 10_000, stated: false, limit: "range" }],
  ];
  for (const [name, code, message, advice] of cases) {
    it(`${name}: '${message.slice(0, 70)}' asks for ${advice.span} blocks next (${advice.stated ? "as said" : "half"}, a ${advice.limit} limit)`, () => {
      expect(advise(code, message)).to.deep.equal(advice);
    });
  }

  it("reads the words in the error's data too (Tenderly puts them in data.payload)", () => {
    expect(advise(-32602, "invalid params", { payload: "range 9009594 is bigger than range limit 2000" })).to.deep.equal({
      span: 2000,
      stated: true,
      limit: "range",
    });
  });

  it("always asks for fewer blocks than were refused, and at least one", () => {
    // A named limit above what was asked (a provider whose limit counts to minus from): one fewer.
    expect(rangeAdvice(new RpcError("eth_getLogs", -32614, "eth_getLogs is limited to a 10,000 range"), 1, 10_000)?.span).to.equal(9_999);
    // A named range as wide as what was asked: one fewer.
    const whole = `this block range should work: [${hex(100)}, ${hex(199)}]`;
    expect(rangeAdvice(new RpcError("eth_getLogs", -32600, whole), 100, 199)?.span).to.equal(99);
    // Two blocks: one. One block: one (the indexer then says that block alone is too much).
    expect(rangeAdvice(new RpcError("eth_getLogs", -32005, "query returned more than 10000 results"), 7, 8)?.span).to.equal(1);
    expect(rangeAdvice(new RpcError("eth_getLogs", -32005, "query returned more than 10000 results"), 7, 7)?.span).to.equal(1);
  });

  it("words the list does not hold but @ponder/utils' catalogue does: its advice", () => {
    // Harmony, from the catalogue only.
    expect(advise(-32000, "query must be smaller than size 1024")).to.deep.equal({ span: 1024, stated: true, limit: "range" });
    // Valtitude, a catch-all of the catalogue's: half.
    expect(advise(-32000, "allowed block range threshold exceeded")).to.deep.equal({ span: 10_000, stated: false, limit: "range" });
  });

  it("is not fooled by other errors: another method, or words about something else", () => {
    expect(rangeAdvice(new RpcError("eth_call", -32600, "block range is too wide"), 1, 100)).to.equal(null);
    expect(rangeAdvice(new RpcError("eth_getLogs", -32000, "invalid argument 0: hex string without 0x prefix"), 1, 100)).to.equal(null);
    expect(rangeAdvice(new RpcError("eth_getLogs", -32601, "the method eth_getLogs does not exist/is not available"), 1, 100)).to.equal(
      null,
    );
    expect(rangeAdvice(new Error("socket hang up"), 1, 100)).to.equal(null);
  });

  describe("the proxy's providers (providerProxy.ts), as the indexer's tests meet them", () => {
    const proxied: [string, LogsRefusal, number][] = [
      ["Alchemy", PROVIDERS.alchemy(500), 500],
      ["Alchemy, the response size", PROVIDERS.alchemyResponseSize(10_000), 500],
      ["Infura (range)", PROVIDERS.infuraRange(10_000), 10_000],
      ["Infura (results)", PROVIDERS.infuraResults(10_000), 500],
      ["QuickNode", PROVIDERS.quicknode(10_000), 10_000],
      ["QuickNode, other words", PROVIDERS.quicknodeBlocks(900), 900],
      ["BlockPI", PROVIDERS.blockpi(1024), 1024],
      ["Cloudflare", PROVIDERS.cloudflare(800), 800],
      ["publicnode", PROVIDERS.publicnode(5000), 5000],
      ["Ankr", PROVIDERS.ankr(3000), 3000],
      ["Ankr, results", PROVIDERS.ankrResults(10_000), 10_000],
      ["Chainstack", PROVIDERS.chainstack(100), 10_000],
      ["an answer too large", PROVIDERS.responseTooLarge(10_000), 10_000],
      ["an unknown provider", PROVIDERS.unknown(64), 10_000],
    ];
    for (const [name, refusal, span] of proxied) {
      it(`${name}: asks for ${span} blocks next`, () => {
        const error = refusal.error(FROM, TO, [FROM, FROM + 499]);
        const advice = advise(error.code, error.message);
        expect(advice?.span).to.equal(span);
        // A limit the words name is never exceeded by the next request (one refusal is enough).
        if (refusal.kind === "range" && advice?.stated && refusal.limit < TO - FROM + 1 && !name.startsWith("Chainstack"))
          expect(span).to.be.at.most(refusal.limit);
      });
    }
  });
});
