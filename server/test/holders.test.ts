import { expect } from "chai";
import fc from "fast-check";
import { rmSync } from "node:fs";
import { getAddress, JsonRpcProvider, keccak256, toUtf8Bytes, ZeroAddress } from "ethers";
import { BatchPayments__factory, USDX__factory } from "@bindings";
import { exactTokenAmount } from "@common/amounts";
import type { Holder, HolderPage } from "@common/apiTypes";
import { seededAccount } from "@common/seedAccounts";
import type { RunningServer } from "../src/index";
import { HOLDERS_CSV_HEADER } from "../src/services/indexing/holders";
import { call, emailUser, provider, revert, snapshot, startTestServer } from "./helpers";
import { migratedDataDir } from "./dataDirs";

/**
 * Issue 18: the Holders screen's API. After a random sequence of mints, transfers, burns, batch
 * payments and multiplier changes (up and down) on the test chain, every row of GET /api/holders
 * equals balanceOf and sharesOf on chain, and the holders are exactly the accounts with a balance;
 * then sorting, search, paging, the CSV export and the refusals.
 */

// fast-check draws the sequence from a fixed seed: the same 40 steps every run (well under a minute).
const SEED = 1818;
const STEPS = 40;

/** Hardhat's unlocked accounts that act: alice, bob, carol, erin and three nobody else uses. */
const ACTORS = ["alice", "bob", "carol", "erin"].map((name) => seededAccount(name).index).concat([12, 13, 14]);
/** Addresses nobody holds a key to: they only receive (and dave, blocked, receives too). */
const FRESH = Array.from({ length: 5 }, (_, i) => getAddress(keccak256(toUtf8Bytes(`holders-test-${i}`)).slice(0, 42)));

type Step =
  | { kind: "mint"; to: number; amount: bigint }
  | { kind: "transfer"; from: number; to: number; percent: number }
  | { kind: "burn"; from: number; percent: number }
  | { kind: "batch"; from: number; rows: { to: number; percent: number }[] }
  | { kind: "multiplier"; set: boolean; thousandths: number };

const actor = fc.integer({ min: 0, max: ACTORS.length - 1 });
const anyone = fc.integer({ min: 0, max: ACTORS.length + FRESH.length }); // the last is dave
// 0 percent is a transfer of 1 wei: at a multiplier above 1.0 it moves no share at all.
const percent = fc.integer({ min: 0, max: 100 });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("mint" as const), to: anyone, amount: fc.bigInt({ min: 1n, max: 10n ** 24n }) }),
  fc.record({ kind: fc.constant("transfer" as const), from: actor, to: anyone, percent }),
  fc.record({ kind: fc.constant("transfer" as const), from: actor, to: anyone, percent }),
  fc.record({ kind: fc.constant("burn" as const), from: actor, percent: fc.integer({ min: 1, max: 100 }) }),
  fc.record({
    kind: fc.constant("batch" as const),
    from: actor,
    rows: fc.array(fc.record({ to: anyone, percent: fc.integer({ min: 1, max: 25 }) }), { minLength: 1, maxLength: 4 }),
  }),
  // Set anywhere from 1.0 to 1.5 (down as well as up), or add 0.001 to 0.501.
  fc.record({ kind: fc.constant("multiplier" as const), set: fc.boolean(), thousandths: fc.integer({ min: 0, max: 500 }) }),
);

describe("GET /api/holders and its CSV export", function () {
  this.timeout(120_000);
  let server: RunningServer;
  let token: string;
  let chainSnapshot: string;
  let node: JsonRpcProvider;
  const usdx = () => USDX__factory.connect(server.services.chain.manifest.proxy, node);
  const as = async (index: number) => usdx().connect(await node.getSigner(index));
  const addressOf = async (index: number) => (await node.getSigner(index)).getAddress();
  const get = (path: string, auth: string | null = token) => call(server, "GET", path, { token: auth ?? undefined });
  const page = async (query: string): Promise<HolderPage> => {
    const answer = await get(`/api/holders?${query}`);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    return answer.body as HolderPage;
  };

  async function play(steps: Step[]): Promise<void> {
    const dave = await addressOf(seededAccount("dave").index);
    const target = async (i: number) =>
      i < ACTORS.length ? addressOf(ACTORS[i]) : i < ACTORS.length + FRESH.length ? FRESH[i - ACTORS.length] : dave;
    const balanceOf = async (i: number) => usdx().balanceOf(await addressOf(ACTORS[i]));
    for (const step of steps) {
      if (step.kind === "mint") {
        await (await (await as(seededAccount("minter").index)).mint(await target(step.to), step.amount)).wait();
      } else if (step.kind === "transfer") {
        const amount = step.percent === 0 ? 1n : ((await balanceOf(step.from)) * BigInt(step.percent)) / 100n;
        if (amount > (await balanceOf(step.from))) continue; // a 1 wei transfer from an empty account
        await (await (await as(ACTORS[step.from])).transfer(await target(step.to), amount)).wait();
      } else if (step.kind === "burn") {
        const amount = ((await balanceOf(step.from)) * BigInt(step.percent)) / 100n;
        if (amount === 0n) continue;
        await (await (await as(seededAccount("burner").index)).burn(await addressOf(ACTORS[step.from]), amount)).wait();
      } else if (step.kind === "batch") {
        // As a batch chunk is paid: an allowance for the total, then BatchPayments.pay (one transferFrom a row).
        const balance = await balanceOf(step.from);
        const amounts = step.rows.map((row) => (balance * BigInt(row.percent)) / 100n);
        if (amounts.some((a) => a === 0n)) continue; // BatchPayments refuses a zero amount
        const payer = await node.getSigner(ACTORS[step.from]);
        const { batchPayments } = server.services.chain.manifest;
        await (
          await usdx()
            .connect(payer)
            .approve(
              batchPayments,
              amounts.reduce((a, b) => a + b, 0n),
            )
        ).wait();
        const recipients = await Promise.all(step.rows.map((row) => target(row.to)));
        await (
          await BatchPayments__factory.connect(batchPayments, payer).pay(
            recipients,
            amounts,
            keccak256(toUtf8Bytes(`holders-${Math.random()}`)),
          )
        ).wait();
      } else {
        const oracle = await as(seededAccount("oracle").index);
        const value = BigInt(step.thousandths) * 10n ** 15n;
        await (await (step.set ? oracle.setRewardMultiplier(10n ** 18n + value) : oracle.addRewardMultiplier(value + 10n ** 15n))).wait();
      }
    }
  }

  /** Every holder, through pages of the largest size. */
  async function allHolders(query = ""): Promise<Holder[]> {
    const rows: Holder[] = [];
    for (let offset = 0; ; offset += 500) {
      const answer = await page(`${query}&limit=500&offset=${offset}`);
      rows.push(...answer.holders);
      if (answer.holders.length < 500) return rows;
    }
  }

  let holders: Holder[];

  before(async () => {
    node = provider();
    chainSnapshot = await snapshot();
    server = await startTestServer();
    token = (await emailUser()).idToken;
    const [steps] = fc.sample(fc.array(stepArb, { minLength: STEPS, maxLength: STEPS }), { seed: SEED, numRuns: 1 });
    await play(steps);
    await server.services.indexer.syncOnce();
    holders = await allHolders();
  });
  after(async () => {
    await server?.close();
    await revert(chainSnapshot);
    node?.destroy();
  });

  it("after a random sequence, every row's balance and shares equal balanceOf and sharesOf, and the holders are exactly the accounts with a balance", async () => {
    const logs = await usdx().queryFilter(usdx().filters.Transfer(), server.services.chain.manifest.deploymentBlock);
    const touched = [...new Set(logs.flatMap((log) => [log.args.from, log.args.to]))].filter((a) => a !== ZeroAddress);
    const onChain = await Promise.all(
      touched.map(async (address) => ({ address, balance: await usdx().balanceOf(address), shares: await usdx().sharesOf(address) })),
    );
    const expected = onChain.filter((a) => a.balance > 0n);
    // The sequence made holders of fresh addresses, emptied some accounts, and moved the multiplier both ways.
    expect(expected.length).to.be.greaterThan(8);
    expect(holders.map((h) => h.address).sort()).to.deep.equal(expected.map((a) => a.address).sort());
    for (const holder of holders) {
      const chain = expected.find((a) => a.address === holder.address)!;
      expect(holder.balance, holder.address).to.equal(chain.balance.toString());
      expect(holder.shares, holder.address).to.equal(chain.shares.toString());
    }

    // The figures around the rows, and first and last activity from the chain's own logs.
    const first = await page("limit=1");
    expect(first.holderCount).to.equal(expected.length);
    expect(first.matching).to.equal(expected.length);
    expect(first.totalSupply).to.equal((await usdx().totalSupply()).toString());
    expect(first.totalShares).to.equal((await usdx().totalShares()).toString());
    expect(first.rewardMultiplier).to.equal((await usdx().rewardMultiplier()).toString());
    expect(first.blockNumber).to.equal(await node.getBlockNumber());
    const times = new Map<number, number>();
    for (const holder of holders) {
      const mine = logs.filter((log) => log.args.from === holder.address || log.args.to === holder.address);
      for (const [log, activity] of [
        [mine[0], holder.firstActivity],
        [mine[mine.length - 1], holder.lastActivity],
      ] as const) {
        if (!times.has(log.blockNumber)) times.set(log.blockNumber, (await node.getBlock(log.blockNumber))!.timestamp);
        expect(activity, holder.address).to.deep.equal({ blockNumber: log.blockNumber, timestamp: times.get(log.blockNumber) });
      }
      const supply = BigInt(first.totalSupply);
      expect(holder.shareOfSupply).to.equal(exactTokenAmount((BigInt(holder.balance) * 10n ** 8n) / supply, 8));
    }
  });

  it("sorts by balance (largest first by default), address, first and last activity, each order the other reversed", async () => {
    const byBalance = holders.map((h) => BigInt(h.balance));
    expect(byBalance).to.deep.equal([...byBalance].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    const checks: [string, (a: Holder, b: Holder) => boolean][] = [
      ["sort=address", (a, b) => a.address.toLowerCase() < b.address.toLowerCase()],
      ["sort=firstActivity&order=asc", (a, b) => a.firstActivity.blockNumber <= b.firstActivity.blockNumber],
      ["sort=lastActivity", (a, b) => a.lastActivity.blockNumber >= b.lastActivity.blockNumber],
      ["sort=balance&order=asc", (a, b) => BigInt(a.balance) <= BigInt(b.balance)],
    ];
    for (const [query, inOrder] of checks) {
      const rows = await allHolders(query);
      expect(rows, query).to.have.length(holders.length);
      for (let i = 1; i < rows.length; i++) expect(inOrder(rows[i - 1], rows[i]), `${query} at row ${i}`).to.equal(true);
      const flipped = query.includes("order=asc")
        ? query.replace("order=asc", "order=desc")
        : `${query}&order=${query === "sort=address" ? "desc" : "asc"}`;
      expect(
        (await allHolders(flipped)).map((h) => h.address),
        flipped,
      ).to.deep.equal(rows.map((h) => h.address).reverse());
    }
    expect((await page("sort=address")).order).to.equal("asc");
    expect((await page("")).order).to.equal("desc");
  });

  it("pages by offset and limit: the pages put together are the whole list, and a page past the end is empty", async () => {
    const pages: Holder[] = [];
    for (let offset = 0; offset < holders.length; offset += 3) {
      const answer = await page(`limit=3&offset=${offset}`);
      expect(answer).to.include({ offset, limit: 3, matching: holders.length });
      pages.push(...answer.holders);
    }
    expect(pages).to.deep.equal(holders);
    const past = await page(`offset=${holders.length + 10}`);
    expect(past.holders).to.deep.equal([]);
    expect(past.matching).to.equal(holders.length);
  });

  it("searches addresses in any case: hex digits anywhere, or the beginning after 0x", async () => {
    const sample = holders[Math.floor(holders.length / 2)];
    const hex = sample.address.slice(2).toLowerCase();
    const prefix = await page(`search=0x${hex.slice(0, 4).toUpperCase()}&limit=500`);
    expect(prefix.holders.map((h) => h.address)).to.include(sample.address);
    for (const h of prefix.holders) expect(h.address.toLowerCase().startsWith(`0x${hex.slice(0, 4)}`), h.address).to.equal(true);
    expect(prefix.matching).to.equal(prefix.holders.length);
    expect(prefix.holderCount).to.equal(holders.length);

    const inside = await page(`search=${hex.slice(17, 22).toUpperCase()}&limit=500`);
    expect(inside.holders.map((h) => h.address)).to.include(sample.address);
    for (const h of inside.holders) expect(h.address.slice(2).toLowerCase(), h.address).to.include(hex.slice(17, 22));
    // "0" is looked for in the 40 hex digits, not in the "0x" every address starts with.
    const zero = await page("search=0&limit=500");
    expect(zero.matching).to.equal(holders.filter((h) => h.address.slice(2).includes("0")).length);
    expect((await page(`search=0x${"f".repeat(40)}`)).holders).to.deep.equal([]);
  });

  it("answers a bad query with a 400 sentence naming the field", async () => {
    for (const [query, field] of [
      ["sort=rank", "sort"],
      ["order=up", "order"],
      ["search=alice", "search"],
      [`search=0x${"a".repeat(41)}`, "search"],
      ["search=0x12%200", "search"],
      ["limit=0", "limit"],
      ["limit=501", "limit"],
      ["offset=-1", "offset"],
      ["offset=1e3", "offset"],
    ]) {
      const answer = await get(`/api/holders?${query}`);
      expect(answer.status, query).to.equal(400);
      expect(answer.body.error, query).to.match(new RegExp(`^Invalid request query: ${field}: \\w+`));
      const exported = await get(`/api/holders/export?${query}`);
      if (!query.startsWith("limit") && !query.startsWith("offset")) expect(exported.status, `export ${query}`).to.equal(400);
    }
  });

  it("exports every matching holder as CSV, row for row the JSON's, in the asked order", async () => {
    for (const query of ["", "sort=address&order=desc", `search=${holders[0].address.slice(2, 4)}&sort=lastActivity`]) {
      const answer = await get(`/api/holders/export?${query}`);
      expect(answer.status, query).to.equal(200);
      expect(answer.headers.get("content-type")).to.equal("text/csv; charset=utf-8");
      expect(answer.headers.get("content-disposition")).to.equal('attachment; filename="usdx_holders.csv"');
      expect(answer.headers.get("cache-control")).to.equal("no-store");
      const lines = (answer.body as unknown as string).split("\r\n");
      expect(lines.pop(), "the file ends with a line end").to.equal("");
      const csvLine = (cells: readonly (string | number)[]) => cells.map((cell) => `"${cell}"`).join(",");
      expect(lines[0]).to.equal(csvLine(HOLDERS_CSV_HEADER));
      const iso = (s: number) => new Date(s * 1000).toISOString();
      const json = await allHolders(query);
      expect(lines.slice(1), query).to.deep.equal(
        json.map((h) =>
          csvLine([
            h.address,
            exactTokenAmount(BigInt(h.balance)),
            exactTokenAmount(BigInt(h.shares)),
            h.shareOfSupply,
            h.firstActivity.blockNumber,
            iso(h.firstActivity.timestamp),
            h.lastActivity.blockNumber,
            iso(h.lastActivity.timestamp),
          ]),
        ),
      );
    }
  });

  it("a restarted server has its holders ready before the first request: that request replays no event", async () => {
    const dir = await migratedDataDir("usdx-holders-");
    try {
      const first = await startTestServer({ PGLITE_DIR: dir });
      await first.close();
      const restarted = await startTestServer({ PGLITE_DIR: dir });
      try {
        // Started by the server itself, not by this test.
        expect(restarted.services.holders.warming).to.be.instanceOf(Promise);
        await restarted.services.holders.warming;
        const { events } = restarted.services;
        let replays = 0;
        const eventsIn = events.eventsIn.bind(events);
        events.eventsIn = (...args) => (replays++, eventsIn(...args));
        const page = await call<HolderPage>(restarted, "GET", "/api/holders?limit=500", { token });
        expect(page.status).to.equal(200);
        expect(replays).to.equal(0);
        expect(page.body.holders).to.deep.equal(holders.slice(0, 500));
      } finally {
        await restarted.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("answers 401 without a sign-in, and 429 after too many exports in a minute", async () => {
    for (const path of ["/api/holders", "/api/holders/export", `/api/rewards/${holders[0].address}`]) {
      const answer = await get(path, null);
      expect(answer.status, path).to.equal(401);
      expect(answer.body.error).to.match(/^Sign in first/);
    }
    const limited = await startTestServer({ RATE_LIMIT_CSV_PER_MINUTE: "2" });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await call(limited, "GET", "/api/holders/export", { token })).status);
      expect(statuses).to.deep.equal([200, 200, 429]);
      const refused = await call(limited, "GET", "/api/holders/export", { token });
      expect(refused.body.error).to.equal("Too many CSV exports: wait a minute and try again.");
      // Pages are not exports: they stay open.
      expect((await call(limited, "GET", "/api/holders", { token })).status).to.equal(200);
    } finally {
      await limited.close();
    }
  });
});
