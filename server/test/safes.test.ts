/**
 * /api/safes (issue 28): the Safes that hold USDX roles, proposing a write to one, and following it to
 * its execution on chain. The Operations Safe is the seed's (2 of admin, minter and approver; MINTER,
 * ORACLE and PAUSE). Approvals, replacement and recounting: safes.approvals.test.ts.
 */
import { expect } from "chai";
import { Contract, ZeroAddress, parseUnits } from "ethers";
import { USDX__factory } from "@bindings";
import type { RunningServer } from "../src/index";
import { emailUser, provider, randomAddress, startTestServer } from "./helpers";
import {
  deployment,
  execute,
  expectRefused,
  mintTx,
  owner,
  roleLessSafe,
  safeAt,
  safeCalls,
  safeSuite,
  safeNonce,
  sign,
} from "./safesHelpers";
import { SAFE_QUEUE_MAX } from "@common/api/safes";
import { ROLES } from "@common/roles";
import { execTransactionArgs, plainSafeTx, rejectionSafeTx, safeTxHash, type SafeTx } from "@common/safe";
import { encodeTokenCall } from "@common/safeCalls";

describe("/api/safes: Safes that hold USDX roles, and proposals to them", () => {
  let server: RunningServer;
  const api = safeSuite((s) => {
    server = s;
  });
  const usd = (amount: string) => parseUnits(amount, 18);

  /** The admin's signature of `tx` proposed to the Operations Safe. */
  const proposeAsAdmin = async (tx: SafeTx, safe = deployment().safe) => api.propose(safe, tx, await sign(owner("admin"), safe, tx));

  it("safeTxHash (common/safe.ts) is the Safe contract's own getTransactionHash, for a call, a rejection and every field set", async () => {
    const { safe, token: usdx } = deployment();
    const everyField: SafeTx = {
      to: usdx,
      value: "7",
      data: encodeTokenCall("pause", []),
      operation: 1,
      safeTxGas: "100000",
      baseGas: "21000",
      gasPrice: "3",
      gasToken: usdx,
      refundReceiver: owner("minter").address,
      nonce: "42",
    };
    for (const tx of [mintTx(randomAddress(), usd("250"), 0), rejectionSafeTx(safe, 3), everyField]) {
      // getTransactionHash takes execTransaction's first nine arguments, then the nonce.
      const onChain = await safeAt(safe).getTransactionHash(...execTransactionArgs(tx, "0x").slice(0, 9), tx.nonce);
      expect(safeTxHash(31337, safe, tx)).to.equal(onChain);
    }
  });

  describe("GET /api/safes", () => {
    it("lists the Operations Safe with its owners, threshold, nonce and roles; a Safe holding no role is not listed until it holds one", async () => {
      const { safe } = deployment();
      const other = await roleLessSafe(101n);
      const before = await api.safes();
      expect(before.status).to.equal(200);
      expect(before.body.safes).to.deep.equal([
        {
          address: safe,
          name: "Operations Safe",
          owners: [owner("admin").address, owner("minter").address, owner("approver").address],
          threshold: 2,
          nonce: "0",
          roles: ["MINTER_ROLE", "ORACLE_ROLE", "PAUSE_ROLE"],
          nextNonce: "0",
        },
      ]);

      const usdx = USDX__factory.connect(deployment().token, owner("admin"));
      await (await usdx.grantRole(ROLES.BURNER_ROLE, other)).wait();
      await server.services.indexer.syncOnce();
      const after = await api.safes();
      expect(after.body.safes.map((s: { address: string; name: string; roles: string[] }) => [s.address, s.name, s.roles])).to.deep.equal([
        [safe, "Operations Safe", ["MINTER_ROLE", "ORACLE_ROLE", "PAUSE_ROLE"]],
        [other, `${other.slice(0, 6)}...${other.slice(-4)}`, ["BURNER_ROLE"]],
      ]);
    });

    it("answers 401 signed out", async () => {
      const answer = await safeCalls(
        () => server,
        () => "",
      ).safes();
      expect(answer.status).to.equal(401);
    });
  });

  describe("a proposal's life: proposed, approved, executed on chain", () => {
    it("stores the admin's proposal as 1 of 2, the minter's approval makes 2 of 2, and once an owner executes it the list shows it executed by that transaction", async () => {
      const { safe, token: usdx } = deployment();
      const recipient = randomAddress();
      const tx = mintTx(recipient, usd("250"), 0);
      const hash = safeTxHash(31337, safe, tx);
      const adminSignature = await sign(owner("admin"), safe, tx);

      const proposed = await api.propose(safe, tx, adminSignature);
      expect(proposed.status, JSON.stringify(proposed.body)).to.equal(201);
      const proposal = proposed.body.proposal;
      expect(proposal).to.deep.include({
        safe,
        safeTxHash: hash,
        tx,
        description: `Mint 250.00 USDX to ${recipient.slice(0, 6)}...${recipient.slice(-4)}`,
        proposer: owner("admin").address,
        state: "pending",
        confirmations: 1,
        threshold: 2,
        executedBy: null,
      });
      expect(proposal.approvals).to.have.length(1);
      expect(proposal.approvals[0]).to.include({ owner: owner("admin").address, signature: adminSignature, current: true });

      const listed = await api.list(safe);
      expect(listed.status).to.equal(200);
      expect(listed.body.safe).to.include({ nonce: "0", nextNonce: "1", threshold: 2 });
      expect(listed.body.proposals).to.deep.equal([proposal]);
      expect((await api.safes()).body.safes[0].nextNonce).to.equal("1");

      const minterSignature = await sign(owner("minter"), safe, tx);
      const approved = await api.approve(safe, hash, minterSignature);
      expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
      expect(approved.body.proposal.confirmations).to.equal(2);
      expect(approved.body.proposal.approvals.map((a: { owner: string }) => a.owner)).to.deep.equal([
        owner("admin").address,
        owner("minter").address,
      ]);

      const executedBy = await execute(safe, tx, [owner("minter"), owner("admin")]);
      // Minted as shares at a multiplier above 1.0: the balance may read a wei under.
      expect(await USDX__factory.connect(usdx, provider()).balanceOf(recipient)).to.be.oneOf([usd("250"), usd("250") - 1n]);
      const after = await api.list(safe);
      expect(after.body.safe).to.include({ nonce: "1", nextNonce: "1" });
      expect(after.body.proposals).to.have.length(1);
      expect(after.body.proposals[0]).to.deep.include({ state: "executed", executedBy, confirmations: 2 });

      const audit = (await server.services.audit.list(10)).filter((e) => e.action.startsWith("safe-"));
      expect(audit.map((e) => [e.action, e.details.safeTxHash])).to.deep.equal([
        ["safe-approval", hash],
        ["safe-proposal", hash],
      ]);
    });
  });

  describe("POST /api/safes/:safe/proposals refuses, and stores nothing", () => {
    const fields: [keyof SafeTx, string | number, string][] = [
      ["value", "1", "A proposal sends no ether: value must be 0, not 1."],
      // operation 1 (a delegatecall) is taken only for a batch chunk's MultiSend: safes.batch.test.ts refuses the others.
      ["safeTxGas", "50000", "safeTxGas must be 0, not 50000: a proposal pays no refund (the owner who executes it pays the gas)."],
      ["baseGas", "21000", "baseGas must be 0, not 21000: a proposal pays no refund (the owner who executes it pays the gas)."],
      ["gasPrice", "1", "gasPrice must be 0, not 1: a proposal pays no refund (the owner who executes it pays the gas)."],
      [
        "gasToken",
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        "gasToken must be the zero address: a proposal pays no refund (the owner who executes it pays the gas).",
      ],
      [
        "refundReceiver",
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        "refundReceiver must be the zero address: a proposal pays no refund (the owner who executes it pays the gas).",
      ],
    ];
    for (const [field, value, sentence] of fields) {
      it(`${field} ${JSON.stringify(value)} (signed as it is): '${sentence}'`, async () => {
        const tx = { ...mintTx(randomAddress(), usd("1"), 0), [field]: value };
        await expectRefused(server, () => proposeAsAdmin(tx), 400, sentence);
      });
    }

    it("a call of another contract than USDX", async () => {
      const { token: usdx } = deployment();
      const elsewhere = randomAddress();
      const tx = plainSafeTx(elsewhere, encodeTokenCall("mint", [randomAddress(), usd("1")]), 0);
      await expectRefused(
        server,
        () => proposeAsAdmin(tx),
        400,
        `A proposal may only call USDX (${usdx}) or reject another proposal: ${elsewhere} is neither.`,
      );
    });

    it("data that is not a write a Safe may propose (a transfer), or a proposable one with bytes after it", async () => {
      const { token: usdx } = deployment();
      const transfer = new Contract(usdx, USDX__factory.abi).interface.encodeFunctionData("transfer", [randomAddress(), 1n]);
      const padded = `${encodeTokenCall("pause", [])}00`;
      for (const data of [transfer, padded])
        await expectRefused(
          server,
          () => proposeAsAdmin(plainSafeTx(usdx, data, 0)),
          400,
          /^The data is not a USDX write a Safe may propose \(mint, burn, /,
        );
    });

    it("a function whose role the Safe does not hold: burn needs BURNER_ROLE", async () => {
      const tx = plainSafeTx(deployment().token, encodeTokenCall("burn", [owner("alice").address, usd("1")]), 0);
      await expectRefused(server, () => proposeAsAdmin(tx), 400, "The Operations Safe does not hold BURNER_ROLE, so it cannot burn.");
    });

    it("a call USDX would refuse from the Safe (simulated): a mint to the zero address", async () => {
      await expectRefused(
        server,
        () => proposeAsAdmin(mintTx(ZeroAddress, usd("1"), 0)),
        400,
        "USDX would refuse this call from the Operations Safe: Tokens cannot be minted to the zero address.",
      );
    });

    it("a nonce the Safe already used", async () => {
      const { safe } = deployment();
      // The Safe uses nonce 0 on chain (a rejection executed without the dashboard).
      await execute(safe, rejectionSafeTx(safe, 0), [owner("admin"), owner("minter")]);
      expect(await safeNonce(safe)).to.equal(1n);
      await expectRefused(
        server,
        () => proposeAsAdmin(mintTx(randomAddress(), usd("1"), 0)),
        400,
        "Nonce 0 is already used: the Safe's next nonce is 1.",
      );
    });

    it(`a nonce more than ${SAFE_QUEUE_MAX} past the Safe's (the last place in the queue is taken)`, async () => {
      const furthest = await proposeAsAdmin(mintTx(randomAddress(), usd("1"), SAFE_QUEUE_MAX));
      expect(furthest.status, JSON.stringify(furthest.body)).to.equal(201);
      await expectRefused(
        server,
        () => proposeAsAdmin(mintTx(randomAddress(), usd("1"), SAFE_QUEUE_MAX + 1)),
        400,
        `Nonce ${SAFE_QUEUE_MAX + 1} is too far ahead: a proposal may wait at most ${SAFE_QUEUE_MAX} places past the Safe's next nonce (0), so ${SAFE_QUEUE_MAX} at most.`,
      );
    });

    it("a rejection at a nonce no pending proposal holds, and a call of the Safe itself with data", async () => {
      const { safe } = deployment();
      await expectRefused(
        server,
        () => proposeAsAdmin(rejectionSafeTx(safe, 0)),
        400,
        "There is no pending proposal at nonce 0 to reject.",
      );
      await expectRefused(
        server,
        () => proposeAsAdmin(plainSafeTx(safe, "0x12345678", 0)),
        400,
        "A proposal may call the Operations Safe itself only to reject another: with empty data (0x), at a pending proposal's nonce.",
      );
    });
  });

  describe("only a Safe that holds a USDX role: 404 otherwise", () => {
    it("a Safe that holds no role, a wallet (no code) and a contract that is not a Safe", async () => {
      const other = await roleLessSafe(202n);
      const wallet = owner("alice").address;
      const { token: usdx } = deployment();
      const tx = mintTx(randomAddress(), usd("1"), 0);
      const cases: [string, string][] = [
        [other, `${other} holds no USDX role, so there is nothing a Safe proposal here could ask it to do.`],
        [wallet, `${wallet} is not a Safe on this chain: it has no contract code.`],
        [usdx, `${usdx} is not a Safe on this chain: it does not answer getOwners, getThreshold and VERSION as a Safe does.`],
      ];
      for (const [address, sentence] of cases) {
        await expectRefused(server, async () => api.propose(address, tx, await sign(owner("admin"), address, tx)), 404, sentence);
        await expectRefused(server, () => api.list(address), 404, sentence);
        await expectRefused(server, () => api.approve(address, `0x${"ab".repeat(32)}`, `0x${"11".repeat(65)}`), 404, sentence);
      }
    });
  });

  describe("the rate limit: USER_SAFE_WRITES_PER_MINUTE", () => {
    it("counts proposals and approvals together per user, and a 429 says how many a minute", async () => {
      const limited = await startTestServer({ USER_SAFE_WRITES_PER_MINUTE: "2" });
      try {
        const user = (await emailUser()).idToken;
        const calls = safeCalls(
          () => limited,
          () => user,
        );
        const wallet = owner("alice").address;
        const tx = mintTx(randomAddress(), usd("1"), 0);
        const signature = await sign(owner("admin"), wallet, tx);
        expect((await calls.propose(wallet, tx, signature)).status).to.equal(404);
        expect((await calls.approve(wallet, `0x${"ab".repeat(32)}`, signature)).status).to.equal(404);
        await expectRefused(
          limited,
          () => calls.propose(wallet, tx, signature),
          429,
          "Too many Safe proposals and approvals (at most 2 a minute): wait a minute and try again.",
        );
        // A malformed body is refused before the limit, and another user has their own budget.
        expect((await calls.approve(wallet, "0x1234", signature)).status).to.equal(400);
        const other = (await emailUser()).idToken;
        const otherCalls = safeCalls(
          () => limited,
          () => other,
        );
        expect((await otherCalls.propose(wallet, tx, signature)).status).to.equal(404);
      } finally {
        await limited.close();
      }
    });
  });
});
