import { expect } from "chai";
import { formatUnits, parseUnits, ZeroAddress } from "ethers";
import { USDX__factory } from "@bindings";
import { readManifest } from "@common/manifestFile";
import { EVENTS_MAX_LIMIT, HISTORY_MAX_LIMIT } from "@common/events";
import { seededAccount } from "@common/seedAccounts";
import type { BlockedAccount, ContractEvent, HistoryEntry, RoleHolders, SupplyPoint } from "@common/apiTypes";
import type { RunningServer } from "../src/index";
import { SUPPLY_EVENTS } from "../src/services/indexing/events";
import { call, mine, operationsSafe, provider, revert, signer, snapshot, stack, startTestServer } from "./helpers";

const manifest = () => readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir });
const usdx = () => USDX__factory.connect(manifest().proxy, provider());
const as = async (name: string) => usdx().connect(await signer(seededAccount(name).index));
const addressOf = async (name: string) => (await signer(seededAccount(name).index)).getAddress();
const ONE = 10n ** 18n;

/**
 * The supply chart as the contract's arithmetic makes it, from the node's own logs (not the index):
 * shares = floor(amount * 1e18 / multiplier) per mint and burn, supply = floor(shares * multiplier
 * / 1e18), one point per block that changed either.
 */
async function replayFromChain(): Promise<{ blockNumber: number; totalSupply: string; totalShares: string; rewardMultiplier: string }[]> {
  const token = usdx();
  const logs = [
    ...(await token.queryFilter(token.filters.Transfer(), manifest().deploymentBlock)),
    ...(await token.queryFilter(token.filters.RewardMultiplier(), manifest().deploymentBlock)),
  ];
  logs.sort((a, b) => a.blockNumber - b.blockNumber || a.index - b.index);
  let multiplier = ONE;
  let shares = 0n;
  const points: { blockNumber: number; totalSupply: string; totalShares: string; rewardMultiplier: string }[] = [];
  for (const log of logs) {
    // A Transfer's arguments or a RewardMultiplier's (only its value).
    const args: { value: bigint; from?: string; to?: string } = log.args;
    if (log.fragment.name === "RewardMultiplier") multiplier = args.value;
    else if (args.from === ZeroAddress) shares += (args.value * ONE) / multiplier;
    else if (args.to === ZeroAddress) shares -= (args.value * ONE) / multiplier;
    else continue;
    const point = {
      blockNumber: log.blockNumber,
      totalSupply: formatUnits((shares * multiplier) / ONE, 18),
      totalShares: formatUnits(shares, 18),
      rewardMultiplier: formatUnits(multiplier, 18),
    };
    if (points.length > 0 && points[points.length - 1].blockNumber === log.blockNumber) points[points.length - 1] = point;
    else points.push(point);
  }
  return points;
}

/** The token's reads a test counts: isBlocked and hasRole, called with their arguments as the server passes them. */
interface CountedReads {
  isBlocked: (...args: unknown[]) => Promise<boolean>;
  hasRole: (...args: unknown[]) => Promise<boolean>;
}

/** How many mints, burns and multiplier changes the chain holds. */
async function supplyEventCount(): Promise<number> {
  const token = usdx();
  const from = manifest().deploymentBlock;
  const [mints, burns, multipliers] = await Promise.all([
    token.queryFilter(token.filters.Transfer(ZeroAddress), from),
    token.queryFilter(token.filters.Transfer(undefined, ZeroAddress), from),
    token.queryFilter(token.filters.RewardMultiplier(), from),
  ]);
  return mints.length + burns.length + multipliers.length;
}

async function supplyAnswer(server: RunningServer) {
  const { status, body } = await call(server, "GET", "/api/stats/supply?points=5000");
  expect(status).to.equal(200);
  return body.points.map(({ timestamp, ...rest }: SupplyPoint) => rest);
}

/** Records how the supply fold reads the index: carrying on after a head ("since"), or replaying all ("replay"). */
function watchSupplyReads(server: RunningServer): { kind: "since" | "replay"; afterBlock: number; rows: number | null }[] {
  const events = server.services.events;
  const since = events.changesSince.bind(events);
  const replay = events.eventsIn.bind(events);
  const reads: { kind: "since" | "replay"; afterBlock: number; rows: number | null }[] = [];
  events.changesSince = async (filters, previous) => {
    const answer = await since(filters, previous);
    if (filters === SUPPLY_EVENTS) reads.push({ kind: "since", afterBlock: previous.block, rows: answer.rows?.length ?? null });
    return answer;
  };
  events.eventsIn = async (filters, afterBlock, toBlock) => {
    const rows = await replay(filters, afterBlock, toBlock);
    if (filters === SUPPLY_EVENTS) reads.push({ kind: "replay", afterBlock, rows: rows.length });
    return rows;
  };
  return reads;
}

describe("Public reads: cost bounded by the page, not by history", () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  describe("GET /api/stats/supply", () => {
    it("equals a replay with the contract's arithmetic after mints, burns and multiplier changes, extending the series from where it stopped", async () => {
      const id = await snapshot();
      try {
        const reads = watchSupplyReads(server);
        expect(await supplyAnswer(server)).to.deep.equal(await replayFromChain());
        const head = server.services.indexer.status().checkpoint!;

        // Nothing changed: no read at all.
        const before = reads.length;
        await supplyAnswer(server);
        expect(reads.length).to.equal(before);

        const erin = await addressOf("erin");
        await (await (await as("minter")).mint(erin, parseUnits("1000", 18))).wait();
        await (await (await as("oracle")).setRewardMultiplier(parseUnits("1.5", 18))).wait();
        await (await (await as("minter")).mint(erin, 1n)).wait(); // worth less than one share: nothing minted
        await (await (await as("minter")).mint(erin, parseUnits("7.000000000000000001", 18))).wait();
        await (await (await as("burner")).burn(erin, parseUnits("333.333333333333333333", 18))).wait();
        await (await (await as("oracle")).addRewardMultiplier(parseUnits("0.0123", 18))).wait();
        await (await (await as("alice")).transfer(erin, 5n)).wait(); // a transfer: no point
        await server.services.indexer.syncOnce();

        const answer = await supplyAnswer(server);
        expect(answer).to.deep.equal(await replayFromChain());
        const last = answer[answer.length - 1];
        expect(last.totalSupply).to.equal(formatUnits(await usdx().totalSupply(), 18));
        expect(last.totalShares).to.equal(formatUnits(await usdx().totalShares(), 18));
        // Only the new blocks were read, in one query, and nothing replayed.
        expect(reads.slice(before)).to.deep.equal([{ kind: "since", afterBlock: head, rows: 6 }]);
      } finally {
        await revert(id);
        await server.services.indexer.syncOnce();
      }
    });

    it("replays from the start after a rewind, even when the new fork is taller than the old one", async () => {
      let id = await snapshot();
      try {
        const reads = watchSupplyReads(server);
        const erin = await addressOf("erin");
        await (await (await as("minter")).mint(erin, parseUnits("50", 18))).wait();
        await (await (await as("oracle")).setRewardMultiplier(parseUnits("2", 18))).wait();
        await server.services.indexer.syncOnce();
        const abandoned = await supplyAnswer(server);
        expect(abandoned).to.deep.equal(await replayFromChain());
        const oldHead = server.services.indexer.status().checkpoint!;

        // Back to the snapshot, then a different fork that grows past the old head before anyone asks.
        await revert(id);
        id = await snapshot(); // a snapshot is spent by its revert
        await server.services.indexer.syncOnce();
        for (let i = 0; i < 3; i++) await mine();
        await (await (await as("minter")).mint(erin, parseUnits("3", 18))).wait();
        await (await (await as("oracle")).addRewardMultiplier(1n)).wait();
        await server.services.indexer.syncOnce();
        expect(server.services.indexer.status().checkpoint!).to.be.greaterThan(oldHead);

        const answer = await supplyAnswer(server);
        expect(answer).to.deep.equal(await replayFromChain());
        expect(answer).not.to.deep.include(abandoned[abandoned.length - 1]);
        // The fold found its last head gone and replayed everything.
        expect(reads.slice(-2)).to.deep.equal([
          { kind: "since", afterBlock: oldHead, rows: null },
          { kind: "replay", afterBlock: Number.MIN_SAFE_INTEGER, rows: await supplyEventCount() },
        ]);
      } finally {
        await revert(id).catch(() => undefined);
        await server.services.indexer.syncOnce();
      }
    });

    it("answers at most `points` (up to 5000), and 400 for more", async () => {
      const all = await call(server, "GET", "/api/stats/supply?points=5000");
      expect(all.body.points.length).to.be.at.most(5000);
      const three = await call(server, "GET", "/api/stats/supply?points=3");
      expect(three.body.points).to.have.length(Math.min(3, all.body.points.length));
      expect(three.body.points[2]).to.deep.equal(all.body.points[all.body.points.length - 1]);
      const one = await call(server, "GET", "/api/stats/supply?points=1");
      expect(one.body.points).to.deep.equal([all.body.points[all.body.points.length - 1]]);
      const tooMany = await call(server, "GET", "/api/stats/supply?points=5001");
      expect(tooMany.status).to.equal(400);
      expect(tooMany.body.error).to.equal("Invalid request query: points: must be at most 5000");
    });
  });

  describe("Transfer rows say what moved (shares round down)", () => {
    it("at multiplier 1.5: transfer(1) moves no share, transfer(2) one (short of 2 wei by half a wei: as the event says), transfer(4) two (worth 3 wei), a 1-wei mint adds nothing, a whole transfer moves all", async () => {
      const id = await snapshot();
      try {
        const alice = await addressOf("alice");
        const bob = await addressOf("bob");
        const erin = await addressOf("erin");
        await (await (await as("oracle")).setRewardMultiplier(parseUnits("1.5", 18))).wait();
        const one = await (await (await as("alice")).transfer(bob, 1n)).wait();
        const two = await (await (await as("alice")).transfer(bob, 2n)).wait();
        const four = await (await (await as("alice")).transfer(bob, 4n)).wait();
        const dust = await (await (await as("minter")).mint(erin, 1n)).wait();
        const whole = await (await (await as("alice")).transfer(bob, parseUnits("3", 18))).wait();
        await server.services.indexer.syncOnce();

        // The chain agrees: bob's shares grew by 0, 1, 2 and 2e18.
        const expected = new Map([
          [one!.hash, { amountRaw: "1", sharesMoved: "0", amountMoved: "0" }],
          [two!.hash, { amountRaw: "2", sharesMoved: "1", amountMoved: "2" }],
          [four!.hash, { amountRaw: "4", sharesMoved: "2", amountMoved: "3" }],
          [dust!.hash, { amountRaw: "1", sharesMoved: "0", amountMoved: "0" }],
          [whole!.hash, { amountRaw: "3000000000000000000", sharesMoved: "2000000000000000000", amountMoved: "3000000000000000000" }],
        ]);

        const history = await call(server, "GET", `/api/accounts/${alice}/history?limit=4`);
        expect(history.body.items.map((i: HistoryEntry) => [i.hash, i.amountRaw, i.sharesMoved, i.amountMoved])).to.deep.equal(
          [whole, four, two, one].map((r) => [
            r!.hash,
            expected.get(r!.hash)!.amountRaw,
            expected.get(r!.hash)!.sharesMoved,
            expected.get(r!.hash)!.amountMoved,
          ]),
        );
        const erinHistory = await call(server, "GET", `/api/accounts/${erin}/history`);
        expect(erinHistory.body.items[0]).to.include({
          type: "Mint",
          amount: "0.000000000000000001",
          amountRaw: "1",
          sharesMoved: "0",
          amountMoved: "0",
        });

        const events = await call(server, "GET", "/api/events?limit=6");
        const transfers = events.body.events.filter((e: ContractEvent) => e.name === "Transfer");
        expect(transfers).to.have.length(5);
        for (const e of transfers) {
          const { sharesMoved, amountMoved, amountRaw } = expected.get(e.transactionHash)!;
          expect(e).to.include({ sharesMoved, amountMoved });
          expect(e.args.value).to.equal(amountRaw); // the event's own value is kept as it was emitted
        }
        const multiplier = events.body.events.find((e: ContractEvent) => e.name === "RewardMultiplier");
        expect(multiplier).not.to.have.property("sharesMoved");

        // Before the change, at 1.0, every seeded transfer moved exactly its value.
        const older = await call(server, "GET", `/api/accounts/${alice}/history?cursor=${history.body.nextCursor}`);
        for (const item of older.body.items) expect(item.amountMoved).to.equal(item.amountRaw);
      } finally {
        await revert(id);
        await server.services.indexer.syncOnce();
      }
    });
  });

  describe("GET /api/roles and /api/blocklist", () => {
    it("follow block, unblock, grant and revoke from the index, ask the chain only when they change, and forget a rewound fork", async () => {
      let id = await snapshot();
      // The two reads counted, replaced on the server's own contract object for the test.
      const token = server.services.chain.usdx as unknown as CountedReads;
      const originalIsBlocked = token.isBlocked;
      const originalHasRole = token.hasRole;
      let isBlockedCalls = 0;
      let hasRoleCalls = 0;
      token.isBlocked = (...args: unknown[]) => (isBlockedCalls++, originalIsBlocked(...args));
      token.hasRole = (...args: unknown[]) => (hasRoleCalls++, originalHasRole(...args));
      try {
        const dave = await addressOf("dave");
        const erin = await addressOf("erin");
        const first = await call(server, "GET", "/api/blocklist");
        expect(first.body.blocked.map((b: BlockedAccount) => b.address)).to.deep.equal([dave]);
        await call(server, "GET", "/api/roles");

        // A new block without blocklist or role events: the answers are reused, the chain not asked.
        const [blockedCalls, roleCalls] = [isBlockedCalls, hasRoleCalls];
        await (await (await as("alice")).transfer(erin, 1n)).wait();
        await server.services.indexer.syncOnce();
        expect((await call(server, "GET", "/api/blocklist")).body).to.deep.equal(first.body);
        await call(server, "GET", "/api/roles");
        expect([isBlockedCalls, hasRoleCalls]).to.deep.equal([blockedCalls, roleCalls]);

        const blocked = await (await (await as("blocklister")).blockAccounts([erin])).wait();
        await (await (await as("blocklister")).unblockAccounts([dave])).wait();
        await (await (await as("admin")).grantRole(await usdx().MINTER_ROLE(), erin)).wait();
        await server.services.indexer.syncOnce();
        const after = await call(server, "GET", "/api/blocklist");
        expect(after.body.blocked).to.deep.equal([
          {
            address: erin,
            isBlocked: true,
            since: {
              blockNumber: blocked!.blockNumber,
              timestamp: (await provider().getBlock(blocked!.blockNumber))!.timestamp,
              transactionHash: blocked!.hash,
            },
          },
        ]);
        const roles = await call(server, "GET", "/api/roles");
        expect(roles.body.roles.find((r: RoleHolders) => r.roleName === "MINTER_ROLE")?.holders).to.deep.equal(
          [await addressOf("minter"), erin, operationsSafe()].sort(),
        );

        await revert(id);
        id = await snapshot();
        await server.services.indexer.syncOnce();
        expect((await call(server, "GET", "/api/blocklist")).body).to.deep.equal(first.body);
        expect(
          (await call(server, "GET", "/api/roles")).body.roles.find((r: RoleHolders) => r.roleName === "MINTER_ROLE")?.holders,
        ).to.deep.equal([await addressOf("minter"), operationsSafe()].sort());
      } finally {
        token.isBlocked = originalIsBlocked;
        token.hasRole = originalHasRole;
        await revert(id).catch(() => undefined);
        await server.services.indexer.syncOnce();
      }
    });
  });

  describe("bounds on query parameters", () => {
    for (const [path, error] of [
      [`/api/events?limit=${EVENTS_MAX_LIMIT + 1}`, `Invalid request query: limit: must be at most ${EVENTS_MAX_LIMIT}`],
      [`/api/events?limit=1000000`, `Invalid request query: limit: must be at most ${EVENTS_MAX_LIMIT}`],
      [`/api/events?limit=ten`, "Invalid request query: limit: must be a whole number"],
      [`/api/events?fromBlock=${"9".repeat(16)}`, "Invalid request query: fromBlock: must be a block number (digits only)"],
      [`/api/events?cursor=${"1".repeat(41)}`, "Invalid request query: cursor: Too big: expected string to have <=40 characters"],
      [`/api/events?eventName=${"x".repeat(65)}`, "Invalid request query: eventName: Too big: expected string to have <=64 characters"],
      [
        `/api/accounts/0x${"ab".repeat(20)}/history?limit=${HISTORY_MAX_LIMIT + 1}`,
        `Invalid request query: limit: must be at most ${HISTORY_MAX_LIMIT}`,
      ],
      [`/api/stats/supply?points=5001`, "Invalid request query: points: must be at most 5000"],
    ] as const) {
      it(`answers 400 '${error}' for ${path}`, async () => {
        const { status, body } = await call(server, "GET", path);
        expect(status).to.equal(400);
        expect(body).to.deep.equal({ success: false, error });
      });
    }

    it("answers exactly `limit` rows at the caps, with a cursor to go on", async () => {
      const events = await call(server, "GET", `/api/events?limit=${EVENTS_MAX_LIMIT}`);
      expect(events.status).to.equal(200);
      expect(events.body.events.length).to.be.at.most(EVENTS_MAX_LIMIT);
      const alice = await addressOf("alice");
      const history = await call(server, "GET", `/api/accounts/${alice}/history?limit=${HISTORY_MAX_LIMIT}`);
      expect(history.status).to.equal(200);
      expect(history.body.items.length).to.be.at.most(HISTORY_MAX_LIMIT);
    });
  });
});
