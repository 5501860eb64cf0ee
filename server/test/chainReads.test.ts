import { expect } from "chai";
import { type BaseContract, formatUnits, parseUnits } from "ethers";
import { USDX__factory } from "@bindings";
import { readManifest } from "@common/manifestFile";
import { ROLE_NAMES, ROLES } from "@common/roles";
import { SEEDED_ACCOUNTS, SEEDED_SAFE, seededAccount } from "@common/seedAccounts";
import type { ContractEvent, HistoryEntry, RoleHolders } from "@common/apiTypes";
import type { RunningServer } from "../src/index";
import { DEFAULT_SCENARIO, loadScenario } from "../src/services/scenarios/load";
import { call, operationsSafe, provider, revert, signer, snapshot, stack, startTestServer } from "./helpers";

const defaultRoles = loadScenario(DEFAULT_SCENARIO).roles ?? {};

describe("Chain reads", () => {
  let server: RunningServer;
  let addresses: string[];
  const usdx = () => USDX__factory.connect(readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir }).proxy, provider());
  const seeded = (name: string) => addresses[seededAccount(name).index];

  before(async () => {
    server = await startTestServer();
    addresses = await Promise.all(SEEDED_ACCOUNTS.map(async (a) => (await signer(a.index)).getAddress()));
  });
  after(async () => {
    await server.close();
  });

  describe("GET /api/token", () => {
    it("answers the chain's supply, shares, decimals, multiplier and pause state", async () => {
      const { status, body } = await call(server, "GET", "/api/token");
      expect(status).to.equal(200);
      const token = usdx();
      expect(body).to.include({
        totalSupply: (await token.totalSupply()).toString(),
        totalShares: (await token.totalShares()).toString(),
        decimals: 18,
        rewardMultiplier: (await token.rewardMultiplier()).toString(),
        paused: false,
        symbol: "USDX",
      });
    });

    it("is refreshed as soon as the indexer sees a change, not after the 5-minute cache", async () => {
      const id = await snapshot();
      try {
        const before = await call(server, "GET", "/api/token");
        const minter = await signer(seededAccount("minter").index);
        await (await usdx().connect(minter).mint(seeded("erin"), parseUnits("1000", 18))).wait();
        await server.services.indexer.syncOnce();
        const after = await call(server, "GET", "/api/token");
        const minted = BigInt(after.body.totalSupply) - BigInt(before.body.totalSupply);
        // Rounding down through shares may lose a wei, never gain one.
        expect(minted === parseUnits("1000", 18) || minted === parseUnits("1000", 18) - 1n, String(minted)).to.equal(true);
      } finally {
        await revert(id);
        await server.services.indexer.syncOnce();
      }
    });
  });

  describe("GET /api/events", () => {
    it("answers the latest 10 events, newest first, with their decoded arguments and block times", async () => {
      const { status, body } = await call(server, "GET", "/api/events");
      expect(status).to.equal(200);
      expect(body.events).to.have.length(10);
      const keys = body.events.map((e: ContractEvent) => e.blockNumber * 1000 + e.logIndex);
      expect(keys).to.deep.equal([...keys].sort((a, b) => b - a));
      const newest = body.events[0];
      expect(newest).to.include({ name: "AccountBlocked", signature: "AccountBlocked(address)", contract: "USDX" });
      expect(newest.args).to.deep.equal({ account: seeded("dave") });
      const block = await provider().getBlock(newest.blockNumber);
      expect(newest.timestamp).to.equal(block!.timestamp);
      expect(body.range.hasMore).to.equal(true);
    });

    it("pages with the cursor through every event, nothing lost or repeated", async () => {
      // Every log of the token: "*" is a name only the untyped contract's queryFilter takes.
      const all = await (usdx() as BaseContract).queryFilter(
        "*",
        readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir }).deploymentBlock,
      );
      const seen: string[] = [];
      let query = "limit=7";
      for (let page = 0; page < 50; page++) {
        const { body } = await call(server, "GET", `/api/events?${query}`);
        expect(body.events.length).to.be.at.most(7);
        seen.push(...body.events.map((e: ContractEvent) => `${e.blockNumber}-${e.logIndex}`));
        if (!body.range.hasMore) {
          expect(body.cursor).to.equal(null);
          break;
        }
        query = `limit=7&cursor=${body.cursor}`;
      }
      expect(seen).to.have.length(all.length);
      expect(new Set(seen).size).to.equal(seen.length);
    });

    it("pages back by blocks ('Load Previous Events'): each page lies in its range, each next page before it", async () => {
      let query = "limit=4";
      let previousFrom = Infinity;
      let pages = 0;
      for (; pages < 50; pages++) {
        const { body } = await call(server, "GET", `/api/events?${query}`);
        for (const e of body.events) {
          expect(e.blockNumber).to.be.within(body.range.fromBlock, body.range.toBlock);
          expect(e.blockNumber).to.be.below(previousFrom);
        }
        if (!body.range.hasMore) break;
        previousFrom = body.range.fromBlock;
        query = `limit=4&toBlock=${body.range.fromBlock - 1}`;
      }
      expect(pages).to.be.greaterThan(2);
    });

    it("filters by the screen's labels and by event names alike", async () => {
      const byLabel = await call(server, "GET", "/api/events?eventName=RewardMultiplierUpdated&limit=100");
      const byName = await call(server, "GET", "/api/events?eventName=RewardMultiplier&limit=100");
      expect(byLabel.body.events.map((e: ContractEvent) => e.args.value)).to.deep.equal([
        "1015000000000000000",
        "1012500000000000000",
        "1000000000000000000",
      ]);
      expect(byName.body).to.deep.equal(byLabel.body);
      const blocked = await call(server, "GET", "/api/events?eventName=Blocked");
      expect(blocked.body.events.map((e: ContractEvent) => e.name)).to.deep.equal(["AccountBlocked"]);
    });

    it("answers a block range with only that range's events", async () => {
      // Three blocks around one of the seed's events (the seed's block numbers move as it grows).
      const all = (await call(server, "GET", "/api/events?limit=100")).body.events as ContractEvent[];
      const middle = all[Math.floor(all.length / 2)].blockNumber;
      const { body } = await call(server, "GET", `/api/events?fromBlock=${middle - 1}&toBlock=${middle + 1}&limit=100`);
      expect(body.events.length).to.be.greaterThan(0);
      for (const e of body.events) expect(e.blockNumber).to.be.within(middle - 1, middle + 1);
      expect(body.range).to.deep.equal({ fromBlock: middle - 1, toBlock: middle + 1, hasMore: false });
      expect(body.cursor).to.equal(null);
    });

    it("answers 'no events' for a range before the deployment", async () => {
      const { status, body } = await call(server, "GET", "/api/events?fromBlock=0&toBlock=1");
      expect(status).to.equal(200);
      expect(body.events).to.deep.equal([]);
    });

    for (const [query, error] of [
      ["eventName=Minted", /Unknown eventName 'Minted': use one of All Events, Transfer/],
      ["fromBlock=9&toBlock=3", /fromBlock \(9\) is after toBlock \(3\)/],
      ["fromBlock=-1", /fromBlock: must be a block number/],
      ["toBlock=1e3", /toBlock: must be a block number/],
      ["limit=0", /limit: must be at least 1/],
      ["limit=101", /limit: must be at most 100/],
      ["limit=ten", /limit: must be a whole number/],
      ["cursor=12", /cursor must be the cursor of an earlier page/],
    ] as const) {
      it(`answers 400 for ${query}`, async () => {
        const { status, body } = await call(server, "GET", `/api/events?${query}`);
        expect(status).to.equal(400);
        expect(body.success).to.equal(false);
        expect(body.error).to.match(error);
      });
    }
  });

  describe("GET /api/accounts/:address/history", () => {
    it("answers an account's transfers, mints and burns, newest first, as on chain", async () => {
      const alice = seeded("alice");
      const { status, body } = await call(server, "GET", `/api/accounts/${alice.toLowerCase()}/history`);
      expect(status).to.equal(200);
      const token = usdx();
      const onChain = [
        ...(await token.queryFilter(token.filters.Transfer(alice))),
        ...(await token.queryFilter(token.filters.Transfer(undefined, alice))),
      ];
      expect(body.items).to.have.length(onChain.length);
      expect(body.items.map((i: HistoryEntry) => i.type)).to.deep.equal(["Transfer", "Transfer", "Transfer", "Mint"]);
      expect(body.items[3]).to.include({ type: "Mint", to: alice, amount: "10000", status: "confirmed" });
      expect(body.items[2]).to.include({ type: "Transfer", from: alice, to: seeded("bob"), amount: "250" });
      expect(body.nextCursor).to.equal(null);
    });

    it("pages with a cursor, newest first, until nextCursor is null", async () => {
      const alice = seeded("alice");
      const first = await call(server, "GET", `/api/accounts/${alice}/history?limit=3`);
      expect(first.body.items).to.have.length(3);
      const second = await call(server, "GET", `/api/accounts/${alice}/history?limit=3&cursor=${first.body.nextCursor}`);
      expect(second.body.items.map((i: HistoryEntry) => i.type)).to.deep.equal(["Mint"]);
      expect(second.body.nextCursor).to.equal(null);
    });

    it("answers an empty history for an account that never held USDX", async () => {
      const { body } = await call(server, "GET", `/api/accounts/0x${"12".repeat(20)}/history`);
      expect(body).to.deep.equal({ items: [], nextCursor: null });
    });

    for (const [path, error] of [
      ["/api/accounts/0x1234/history", /^Invalid request path: address: must be 0x followed by 40 hex characters$/],
      [`/api/accounts/0x${"ab".repeat(20)}/history?cursor=abc`, /cursor must be the cursor of an earlier page/],
      [`/api/accounts/0x${"ab".repeat(20)}/history?limit=201`, /limit: must be at most 200/],
    ] as const) {
      it(`answers 400 for ${path.split("/api/accounts/")[1]}`, async () => {
        const { status, body } = await call(server, "GET", path);
        expect(status).to.equal(400);
        expect(body.error).to.match(error);
      });
    }
  });

  describe("GET /api/roles and GET /api/blocklist", () => {
    it("lists each role's current holders, as hasRole says", async () => {
      const { body } = await call(server, "GET", "/api/roles");
      expect(body.roles.map((r: RoleHolders) => r.roleName)).to.deep.equal([...ROLE_NAMES]);
      for (const account of SEEDED_ACCOUNTS) {
        for (const role of account.roles) {
          const entry = body.roles.find((r: RoleHolders) => r.roleName === role);
          expect(entry?.roleHash).to.equal(ROLES[role]);
          // The Operations Safe holds its roles beside the keys (scenarios/default.yaml).
          const safe = defaultRoles[role]?.includes(SEEDED_SAFE.name) ? [operationsSafe()] : [];
          expect(entry?.holders).to.deep.equal([seeded(account.name), ...safe].sort());
        }
      }
    });

    it("drops a holder whose role was revoked", async () => {
      const id = await snapshot();
      try {
        const admin = await signer(seededAccount("admin").index);
        await (await usdx().connect(admin).revokeRole(ROLES.PAUSE_ROLE, seeded("pauser"))).wait();
        await (await usdx().connect(admin).revokeRole(ROLES.BURNER_ROLE, seeded("burner"))).wait();
        await server.services.indexer.syncOnce();
        const { body } = await call(server, "GET", "/api/roles");
        expect(body.roles.find((r: RoleHolders) => r.roleName === "PAUSE_ROLE")?.holders).to.deep.equal([operationsSafe()]);
        expect(body.roles.find((r: RoleHolders) => r.roleName === "BURNER_ROLE")?.holders).to.deep.equal([]);
      } finally {
        await revert(id);
        await server.services.indexer.syncOnce();
      }
    });

    it("lists the blocked accounts with when they were blocked", async () => {
      const { body } = await call(server, "GET", "/api/blocklist");
      expect(body.blocked).to.have.length(1);
      expect(body.blocked[0]).to.include({ address: seeded("dave"), isBlocked: true });
      expect(body.blocked[0].since.blockNumber).to.be.a("number");
    });
  });

  describe("GET /api/stats/supply", () => {
    it("replays supply and multiplier over time, ending at the chain's figures", async () => {
      const { body } = await call(server, "GET", "/api/stats/supply");
      const last = body.points[body.points.length - 1];
      const token = usdx();
      expect(last.totalSupply).to.equal(formatUnits(await token.totalSupply(), 18));
      expect(last.totalShares).to.equal(formatUnits(await token.totalShares(), 18));
      expect(last.rewardMultiplier).to.equal("1.015");
      // The first point is the deployment: no supply yet, multiplier 1.0; then the first mint.
      expect(body.points[0]).to.include({ totalSupply: "0.0", rewardMultiplier: "1.0" });
      expect(body.points[1].totalSupply).to.equal("100000.0");
    });

    it("thins the series to at most `points`, keeping the first and the last", async () => {
      const all = await call(server, "GET", "/api/stats/supply");
      const few = await call(server, "GET", "/api/stats/supply?points=2");
      expect(few.body.points).to.deep.equal([all.body.points[0], all.body.points[all.body.points.length - 1]]);
    });
  });
});
