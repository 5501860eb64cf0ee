/**
 * /api/safes approvals (issue 28): whose signature counts, replays, two proposals at one nonce, and
 * approvals recounted when the Safe's owners or threshold change on chain. Every refusal is checked
 * for its sentence and for nothing stored (safesHelpers.ts expectRefused).
 */
import { expect } from "chai";
import { Wallet, parseUnits, recoverAddress } from "ethers";
import type { RunningServer } from "../src/index";
import { randomAddress, revert, snapshot } from "./helpers";
import {
  CHAIN_ID,
  deployment,
  execute,
  expectRefused,
  manageOwners,
  mintTx,
  owner,
  removeOwnerArgs,
  safeSuite,
  sign,
} from "./safesHelpers";
import { rejectionSafeTx, safeTxHash, type SafeTx } from "@common/safe";

const usd = (amount: string) => parseUnits(amount, 18);
const NOT_AN_OWNER = (address: string) =>
  `The signature recovers ${address}, which is not an owner of the Operations Safe on this chain (chain 31337): ` +
  "a signature made for another Safe, another chain or other fields recovers a different address.";

describe("/api/safes approvals: whose signature counts, and the count as the Safe changes", () => {
  let server: RunningServer;
  const api = safeSuite((s) => {
    server = s;
  });

  /** The admin's proposal of a mint at `nonce` to the Operations Safe, stored: its SafeTx and hash. */
  async function proposed(nonce = 0): Promise<{ tx: SafeTx; hash: string }> {
    const { safe } = deployment();
    const tx = mintTx(randomAddress(), usd("10"), nonce);
    const answer = await api.propose(safe, tx, await sign(owner("admin"), safe, tx));
    expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    return { tx, hash: answer.body.proposal.safeTxHash };
  }

  describe("signatures that are not a current owner's for this Safe and chain: 400, naming what they recover", () => {
    it("a wallet that is not an owner, proposing and approving", async () => {
      const { safe } = deployment();
      const stranger = Wallet.createRandom();
      const tx = mintTx(randomAddress(), usd("1"), 0);
      await expectRefused(server, async () => api.propose(safe, tx, await sign(stranger, safe, tx)), 400, NOT_AN_OWNER(stranger.address));
      const { tx: stored, hash } = await proposed();
      await expectRefused(
        server,
        async () => api.approve(safe, hash, await sign(stranger, safe, stored)),
        400,
        NOT_AN_OWNER(stranger.address),
      );
    });

    it("an owner's signature for another Safe, and for another chain id", async () => {
      const { safe } = deployment();
      const { tx, hash } = await proposed();
      const otherSafe = await sign(owner("minter"), randomAddress(), tx);
      const otherChain = await sign(owner("minter"), safe, tx, 1);
      for (const signature of [otherSafe, otherChain]) {
        const recovered = recoverAddress(hash, signature);
        expect(recovered).to.not.equal(owner("minter").address);
        await expectRefused(server, () => api.approve(safe, hash, signature), 400, NOT_AN_OWNER(recovered));
        await expectRefused(server, () => api.propose(safe, tx, signature), 400, NOT_AN_OWNER(recovered));
      }
    });

    it("malformed signatures: an eth_sign v (31), an s in the upper half, zeros; a short one is refused by the schema", async () => {
      const { safe } = deployment();
      const { tx, hash } = await proposed();
      const good = await sign(owner("minter"), safe, tx);
      const ethSignV = `${good.slice(0, 130)}1f`;
      // The same signature with s' = n - s and v flipped: valid ECDSA, but a second form of one key's signature.
      const n = BigInt("0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
      const s = BigInt(`0x${good.slice(66, 130)}`);
      const v = parseInt(good.slice(130), 16);
      const highS = `${good.slice(0, 66)}${(n - s).toString(16).padStart(64, "0")}${(v === 27 ? 28 : 27).toString(16)}`;
      const malformed =
        "The signature is not an owner's EIP-712 signature: it must be 65 bytes, with v 27 or 28 and s in the lower half of the curve.";
      for (const signature of [ethSignV, highS, `0x${"00".repeat(65)}`]) {
        await expectRefused(server, () => api.approve(safe, hash, signature), 400, malformed);
      }
      await expectRefused(
        server,
        () => api.approve(safe, hash, good.slice(0, 130)),
        400,
        /^Invalid request body: signature: must be a 65-byte signature/,
      );
    });
  });

  describe("replays: 409", () => {
    it("the same owner approving twice (the proposer's own signature, and the minter's sent again)", async () => {
      const { safe } = deployment();
      const { tx, hash } = await proposed();
      await expectRefused(
        server,
        async () => api.approve(safe, hash, await sign(owner("admin"), safe, tx)),
        409,
        `${owner("admin").address} already approved this proposal.`,
      );
      const minter = await sign(owner("minter"), safe, tx);
      expect((await api.approve(safe, hash, minter)).status).to.equal(200);
      await expectRefused(server, () => api.approve(safe, hash, minter), 409, `${owner("minter").address} already approved this proposal.`);
    });

    it("the same SafeTx proposed again, by any owner", async () => {
      const { safe } = deployment();
      const { tx, hash } = await proposed();
      await expectRefused(
        server,
        async () => api.propose(safe, tx, await sign(owner("approver"), safe, tx)),
        409,
        `This proposal was already made (${hash.slice(0, 10)}...${hash.slice(-6)}): approve it instead.`,
      );
    });

    it("an approval of a proposal this Safe does not have: 404", async () => {
      const { safe } = deployment();
      const { tx } = await proposed();
      const unknown = `0x${"ab".repeat(32)}`;
      await expectRefused(
        server,
        async () => api.approve(safe, unknown, await sign(owner("minter"), safe, tx)),
        404,
        "There is no proposal 0xabababab...ababab of the Operations Safe.",
      );
    });
  });

  describe("two proposals at one nonce: the Safe executes one, the other is replaced", () => {
    it("shows both while pending; executing the rejection marks it executed and the mint replaced, which then takes no approval", async () => {
      const { safe } = deployment();
      const mint = await proposed(0);
      const rejection = rejectionSafeTx(safe, 0);
      const rejected = await api.propose(safe, rejection, await sign(owner("minter"), safe, rejection));
      expect(rejected.status, JSON.stringify(rejected.body)).to.equal(201);
      expect(rejected.body.proposal.description).to.equal("Reject: use up this nonce without doing anything");
      const rejectionHash = safeTxHash(CHAIN_ID, safe, rejection);

      const pending = await api.list(safe);
      expect(pending.body.proposals.map((p: { safeTxHash: string; state: string }) => [p.safeTxHash, p.state])).to.deep.equal([
        [mint.hash, "pending"],
        [rejectionHash, "pending"],
      ]);
      expect(pending.body.safe.nextNonce).to.equal("1");

      const executedBy = await execute(safe, rejection, [owner("minter"), owner("approver")]);
      const after = await api.list(safe);
      const states = Object.fromEntries(after.body.proposals.map((p: { safeTxHash: string; state: string }) => [p.safeTxHash, p]));
      expect(states[rejectionHash]).to.deep.include({ state: "executed", executedBy });
      expect(states[mint.hash]).to.deep.include({ state: "replaced", executedBy: null });

      const short = `${rejectionHash.slice(0, 10)}...${rejectionHash.slice(-6)}`;
      await expectRefused(
        server,
        async () => api.approve(safe, mint.hash, await sign(owner("approver"), safe, mint.tx)),
        409,
        `This proposal was replaced by ${short} ('Reject: use up this nonce without doing anything'), executed at nonce 0.`,
      );
      await expectRefused(
        server,
        async () => api.approve(safe, rejectionHash, await sign(owner("admin"), safe, rejection)),
        409,
        `This proposal was already executed (transaction ${executedBy.slice(0, 10)}...${executedBy.slice(-6)}).`,
      );
    });
  });

  describe("a nonce gone back", () => {
    it("an execution the chain takes back (evm_revert, as a reorganisation would) leaves both proposals at that nonce pending again", async () => {
      const { safe } = deployment();
      const mint = await proposed(0);
      const rejection = rejectionSafeTx(safe, 0);
      expect((await api.propose(safe, rejection, await sign(owner("minter"), safe, rejection))).status).to.equal(201);
      const beforeExecution = await snapshot();
      await execute(safe, mint.tx, [owner("admin"), owner("minter")]);
      const ended = await api.list(safe);
      expect(ended.body.proposals.map((p: { state: string }) => p.state).sort()).to.deep.equal(["executed", "replaced"]);

      await revert(beforeExecution);
      const again = await api.list(safe);
      expect(again.body.safe.nonce).to.equal("0");
      expect(again.body.proposals.map((p: { state: string; executedBy: string | null }) => [p.state, p.executedBy])).to.deep.equal([
        ["pending", null],
        ["pending", null],
      ]);
    });
  });

  describe("approvals recounted against the Safe at the latest block", () => {
    it("a threshold raised to 3 after two approvals: 2 of 3, and the approver's makes 3 of 3", async () => {
      const { safe } = deployment();
      // Queued at nonce 1, so the threshold change can use nonce 0 without replacing it.
      const { tx, hash } = await proposed(1);
      expect((await api.approve(safe, hash, await sign(owner("minter"), safe, tx))).body.proposal).to.include({
        confirmations: 2,
        threshold: 2,
      });
      await manageOwners(safe, "changeThreshold", [3]);
      const listed = await api.list(safe);
      expect(listed.body.safe.threshold).to.equal(3);
      expect(listed.body.proposals[0]).to.include({ state: "pending", confirmations: 2, threshold: 3 });
      expect(listed.body.proposals[0].changes).to.deep.equal(["The threshold changed from 2 to 3 after this was proposed."]);
      const third = await api.approve(safe, hash, await sign(owner("approver"), safe, tx));
      expect(third.body.proposal).to.include({ confirmations: 3, threshold: 3 });
    });

    it("an owner removed after approving: its approval stays, marked not current, and no longer counts; it cannot approve again", async () => {
      const { safe } = deployment();
      const { tx, hash } = await proposed(1);
      const minter = owner("minter").address;
      expect((await api.approve(safe, hash, await sign(owner("minter"), safe, tx))).body.proposal.confirmations).to.equal(2);
      await manageOwners(safe, "removeOwner", await removeOwnerArgs(safe, minter, 2));

      const listed = await api.list(safe);
      expect(listed.body.safe.owners).to.deep.equal([owner("admin").address, owner("approver").address]);
      const proposal = listed.body.proposals[0];
      expect(proposal).to.include({ state: "pending", confirmations: 1, threshold: 2 });
      expect(proposal.changes).to.deep.equal([`${minter} approved but is no longer an owner: that approval does not count.`]);
      expect(proposal.approvals.map((a: { owner: string; current: boolean }) => [a.owner, a.current])).to.deep.equal([
        [owner("admin").address, true],
        [minter, false],
      ]);

      // A removed owner's fresh signature is refused like any non-owner's (and this one is a replay too).
      await expectRefused(server, async () => api.approve(safe, hash, await sign(owner("minter"), safe, tx)), 400, NOT_AN_OWNER(minter));
      const approver = await api.approve(safe, hash, await sign(owner("approver"), safe, tx));
      expect(approver.status, JSON.stringify(approver.body)).to.equal(200);
      expect(approver.body.proposal.confirmations).to.equal(2);
    });
  });
});
