import { expect } from "chai";
import { JsonRpcProvider, parseUnits, ZeroAddress } from "ethers";
import { USDX__factory } from "@bindings";
import type { Rewards } from "@common/apiTypes";
import { seededAccount } from "@common/seedAccounts";
import type { RunningServer } from "../src/index";
import { call, emailUser, mine, provider, randomAddress, revert, snapshot, stack, startTestServer } from "./helpers";
import { rpc } from "./stack";

/**
 * Issue 18: 'Rewards earned'. A history computed by hand (docs/PRODUCT.md, Dashboard, 'Rewards
 * earned'): between two Transfers an account's shares stand still, and each multiplier change adds
 * floor(shares * new / 1e18) - floor(shares * old / 1e18) to its balance.
 */

const ONE = 10n ** 18n;
const DAY = 24 * 60 * 60;

describe("GET /api/rewards/:address", function () {
  this.timeout(120_000);
  let server: RunningServer;
  let token: string;
  let chainSnapshot: string;
  let node: JsonRpcProvider;
  const usdx = () => USDX__factory.connect(server.services.chain.manifest.proxy, node);
  const as = async (index: number) => usdx().connect(await node.getSigner(index));
  const rewardsOf = async (address: string): Promise<{ status: number; body: Rewards & { error?: string } }> => {
    const answer = await call(server, "GET", `/api/rewards/${address}`, { token });
    return { status: answer.status, body: answer.body as Rewards & { error?: string } };
  };

  before(async () => {
    node = provider();
    chainSnapshot = await snapshot();
    server = await startTestServer();
    token = (await emailUser()).idToken;
  });
  after(async () => {
    await server?.close();
    await revert(chainSnapshot);
    // The revert takes the 31 days back too: the next block (mined here, then reverted) is stamped about now.
    const probe = await snapshot();
    await mine();
    expect((await node.getBlock("latest"))!.timestamp).to.be.below(Date.now() / 1000 + DAY);
    await revert(probe);
    node?.destroy();
  });

  it("equals a history computed by hand: mint 100 at 1.0, multiplier to 1.1, 31 days, transfer 50 out, multiplier to 1.2", async () => {
    const oracle = await as(seededAccount("oracle").index);
    // Two of Hardhat's accounts no other test uses: Holly receives the mint, Sam receives her 50.
    const holly = await (await node.getSigner(15)).getAddress();
    const sam = await (await node.getSigner(16)).getAddress();

    await (await oracle.setRewardMultiplier(ONE)).wait(); // 1.0 (the seed left 1.015); Holly has nothing yet, so it earns her nothing
    await (await (await as(seededAccount("minter").index)).mint(holly, parseUnits("100", 18))).wait();
    // shares 100e18 (100 * 1e18 / 1.0); balance 100
    await (await oracle.setRewardMultiplier(parseUnits("1.1", 18))).wait();
    // balance floor(100e18 * 1.1) = 110e18: reward 1 = 110e18 - 100e18 = 10e18
    await rpc(stack().rpcUrl, "evm_increaseTime", [31 * DAY]); // reward 1 is now more than 30 days old
    await (await (await as(15)).transfer(sam, parseUnits("50", 18))).wait();
    // moves floor(50e18 * 1e18 / 1.1e18) = 45454545454545454545 shares;
    // Holly keeps 100e18 - 45454545454545454545 = 54545454545454545455 shares, balance floor(60.0000000000000000005e18) = 60e18
    await (await (await as(15)).transfer(holly, parseUnits("7", 18))).wait(); // to herself: moves nothing, earns nothing
    await (await oracle.setRewardMultiplier(parseUnits("1.2", 18))).wait();
    // balance 54545454545454545455 * 1.2 = 65454545454545454546 exactly: reward 2 = 65454545454545454546 - 60e18 = 5454545454545454546
    await server.services.indexer.syncOnce();

    const newest = (await node.getBlock("latest"))!;
    const { status, body } = await rewardsOf(holly.toLowerCase());
    expect(status).to.equal(200);
    expect(body).to.deep.equal({
      address: holly,
      shares: "54545454545454545455",
      rewardMultiplier: "1200000000000000000",
      balance: "65454545454545454546",
      allTime: "15454545454545454546", // 10e18 + 5454545454545454546
      last30Days: "5454545454545454546", // reward 2 only
      fromTransfers: "50000000000000000000", // +100 minted, then the transfer took 110 - 60 = 50 off the balance
      asOf: { blockNumber: newest.number, timestamp: newest.timestamp },
    });
    expect(body.balance).to.equal((await usdx().balanceOf(holly)).toString());
    expect(body.shares).to.equal((await usdx().sharesOf(holly)).toString());

    // Sam received 45454545454545454545 shares at 1.1: worth floor(49.9999999999999999995e18) = 49999999999999999999,
    // one wei short of the 50 the event says. At 1.2 they are worth 54545454545454545454 exactly:
    // reward 54545454545454545454 - 49999999999999999999 = 4545454545454545455, all of it in the last 30 days.
    const samRewards = (await rewardsOf(sam)).body;
    expect(samRewards).to.include({
      shares: "45454545454545454545",
      balance: "54545454545454545454",
      allTime: "4545454545454545455",
      last30Days: "4545454545454545455",
      fromTransfers: "49999999999999999999",
    });
    expect(samRewards.balance).to.equal((await usdx().balanceOf(sam)).toString());
  });

  it("counts a multiplier that went down as a negative reward", async () => {
    const id = await snapshot();
    try {
      const holly = await (await node.getSigner(15)).getAddress();
      const before = (await rewardsOf(holly)).body;
      // 54545454545454545455 shares from 1.2 down to 1.15: floor(62727272727272727273.25) - 65454545454545454546
      await (await (await as(seededAccount("oracle").index)).setRewardMultiplier(parseUnits("1.15", 18))).wait();
      await server.services.indexer.syncOnce();
      const after = (await rewardsOf(holly)).body;
      const change = 62727272727272727273n - 65454545454545454546n; // -2727272727272727273
      expect(BigInt(after.allTime) - BigInt(before.allTime)).to.equal(change);
      expect(BigInt(after.last30Days) - BigInt(before.last30Days)).to.equal(change);
      expect(after.balance).to.equal("62727272727272727273");
    } finally {
      await revert(id);
      await server.services.indexer.syncOnce();
    }
  });

  it("answers zeros for an address that never held USDX, and refuses a bad or zero address with a sentence", async () => {
    const nobody = await rewardsOf(randomAddress());
    expect(nobody.status).to.equal(200);
    expect(nobody.body).to.include({ shares: "0", balance: "0", allTime: "0", last30Days: "0", fromTransfers: "0" });

    const zero = await rewardsOf(ZeroAddress);
    expect(zero.status).to.equal(400);
    expect(zero.body.error).to.equal("The zero address holds no USDX: it is where mints come from and burns go.");
    for (const bad of ["0x1234", "alice.eth", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", "0x".padEnd(4000, "f")]) {
      const answer = await rewardsOf(bad);
      expect(answer.status, bad.slice(0, 50)).to.equal(400);
      expect(answer.body.error, bad.slice(0, 50)).to.match(
        /^Invalid request path: address: (must be 0x followed by 40 hex characters|has a wrong checksum)/,
      );
      expect(answer.body.error?.length).to.be.below(300);
    }
  });
});
