/**
 * Alert rules of the kind 'safe' (issue 28): a Safe proposal created, approved and executed, each
 * delivered once per enabled rule, signed, in words; nothing for a rule that is off; nothing twice
 * when a step is stored or reconciled again (a retry, a replica, a restart). And History: the
 * USDX events an executed proposal's transaction carried say which Safe sent them (viaSafe).
 */
import { expect } from "chai";
import { Wallet, parseUnits } from "ethers";
import { eq } from "drizzle-orm";
import { alertDeliveries, alertRules, safeProposals } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { createLogger } from "../src/lib/logger";
import { SafeAlerts } from "../src/services/alerts/safeEvents";
import { AlertReceiver, signedBy } from "./alertReceiver";
import { call, emailUser, randomAddress, revert, snapshot, startTestServer, until, walletUser } from "./helpers";
import { deployment, execute, forgetProposals, mintTx, owner, safeCalls, sign } from "./safesHelpers";

const usd = (amount: string) => parseUnits(amount, 18);

interface ProposalBody {
  step: string;
  callFailed: boolean | null;
  safe: { address: string; name: string };
  safeTxHash: string;
  nonce: number;
  description: string;
  proposer: string;
  by: string | null;
  confirmations: number;
  threshold: number;
  transactionHash: string | null;
}

describe("Alerts on Safe proposals: created, approved, executed, once per rule", function () {
  this.timeout(120_000);
  const adminWallet = Wallet.createRandom() as unknown as Wallet;
  let server: RunningServer;
  let receiver: AlertReceiver;
  let admin: string;
  let user: string;
  let outer: string;
  const api = safeCalls(
    () => server,
    () => user,
  );

  async function addRule(path: string, enabled = true): Promise<{ id: number; secret: string }> {
    const made = await call(server, "POST", "/api/alerts/rules", {
      token: admin,
      body: { kind: "safe", webhookUrl: `${receiver.url}${path}` },
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    if (!enabled) {
      const off = await call(server, "PATCH", `/api/alerts/rules/${made.body.rule.id}`, { token: admin, body: { enabled: false } });
      expect(off.status).to.equal(200);
    }
    return { id: made.body.rule.id, secret: made.body.secret };
  }

  const deliveriesOf = (ruleId: number) => server.services.db.db.select().from(alertDeliveries).where(eq(alertDeliveries.ruleId, ruleId));
  const bodies = (path: string) =>
    receiver.received.filter((r) => r.path === path).map((r) => r.body as unknown as { proposal: ProposalBody; summary: string });

  before(async () => {
    outer = await snapshot();
    receiver = await AlertReceiver.start();
    server = await startTestServer({ ADMIN_WALLETS: adminWallet.address, ALERT_POLL_MS: "100" });
    admin = (await walletUser(server, adminWallet)).idToken;
    user = (await emailUser()).idToken;
    await forgetProposals(server);
  });
  after(async () => {
    await server?.services.db.db.delete(alertRules);
    await server?.close();
    await receiver?.stop();
    await revert(outer);
  });

  it("delivers each step once to each enabled rule, says it in words, and nothing to a rule that is off", async () => {
    const { safe } = deployment();
    const on = await addRule("/on");
    const second = await addRule("/second");
    const off = await addRule("/off", false);

    const to = randomAddress();
    const tx = mintTx(to, usd("250"), 0);
    const proposed = await api.propose(safe, tx, await sign(owner("admin"), safe, tx));
    expect(proposed.status, JSON.stringify(proposed.body)).to.equal(201);
    const hash: string = proposed.body.proposal.safeTxHash;
    const description: string = proposed.body.proposal.description;
    const approved = await api.approve(safe, hash, await sign(owner("minter"), safe, tx));
    expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
    const executedTx = await execute(safe, tx, [owner("admin"), owner("minter")]);
    // A read reconciles: the Safe's nonce moved, its ExecutionSuccess names the proposal.
    const listed = await api.list(safe);
    expect(listed.body.proposals[0].state).to.equal("executed");

    await until(
      "three deliveries to each enabled rule",
      async () => [bodies("/on").length, bodies("/second").length],
      (n) => n[0] >= 3 && n[1] >= 3,
    );
    const got = bodies("/on");
    expect(got.map((b) => b.proposal.step)).to.deep.equal(["created", "approved", "executed"]);
    for (const r of receiver.received.filter((r) => r.path === "/on"))
      expect(signedBy(r, on.secret), "signed with the rule's secret").to.equal(true);
    for (const r of receiver.received.filter((r) => r.path === "/second"))
      expect(signedBy(r, second.secret), "signed with the rule's secret").to.equal(true);

    const admin_ = owner("admin").address;
    const minter = owner("minter").address;
    const named = `Operations Safe (${safe})`;
    expect(description).to.match(/^Mint 250\.00 USDX to /);
    expect(got[0].summary).to.equal(`${admin_} proposed '${description}' at nonce 0 to ${named}: 1 of 2 approvals.`);
    expect(got[1].summary).to.equal(`${minter} approved '${description}' at nonce 0 on ${named}: 2 of 2 approvals.`);
    expect(got[2].summary).to.equal(`${named} executed '${description}' at nonce 0 in transaction ${executedTx}.`);
    expect(got[0].proposal).to.deep.include({ safeTxHash: hash, nonce: 0, proposer: admin_, by: admin_, confirmations: 1, threshold: 2 });
    expect(got[0].proposal.safe).to.deep.equal({ address: safe, name: "Operations Safe" });
    expect(got[1].proposal).to.deep.include({ by: minter, confirmations: 2, transactionHash: null, callFailed: null });
    expect(got[2].proposal).to.deep.include({ by: null, transactionHash: executedTx, callFailed: false, confirmations: 2 });

    expect(await deliveriesOf(off.id), "the rule that is off").to.deep.equal([]);
    expect(bodies("/off")).to.deep.equal([]);
    const stored = await deliveriesOf(on.id);
    expect(stored.map((d) => d.eventKey).sort()).to.deep.equal(
      [`safe:${hash}:created`, `safe:${hash}:approved:${minter.toLowerCase()}`, `safe:${hash}:executed`].sort(),
    );
    // The receiver has each body before the deliverer records its answer: wait for the record.
    const recorded = await until(
      "the deliveries recorded as delivered",
      () => deliveriesOf(on.id),
      (rows) => rows.every((d) => d.status !== "pending"),
    );
    expect(
      recorded.every((d) => d.status === "delivered"),
      "delivered, not cancelled for want of an indexed event",
    ).to.equal(true);

    // The log answers each with the step in words.
    const log = await call(server, "GET", `/api/alerts/deliveries?ruleId=${on.id}`, { token: admin });
    expect(log.status, JSON.stringify(log.body)).to.equal(200);
    expect(log.body.deliveries.map((d: { proposal: { step: string } }) => d.proposal.step).sort()).to.deep.equal([
      "approved",
      "created",
      "executed",
    ]);
    expect(log.body.deliveries.every((d: { event: unknown }) => d.event === null)).to.equal(true);

    // Replays: the same steps told again (a retried request, a second replica, a restarted server
    // reconciling a proposal a rewind had reopened) make no second delivery.
    const row = (await server.services.db.db.select().from(safeProposals).where(eq(safeProposals.safeTxHash, hash)))[0];
    const seen = { address: safe, name: "Operations Safe", owners: [admin_, minter, owner("approver").address], threshold: 2 };
    const again = new SafeAlerts(31337, createLogger("silent"));
    await again.proposed(server.services.db.db, seen, row);
    await again.approved(server.services.db.db, seen, row, minter);
    await again.ended(server.services.db.db, seen, [{ row, state: "executed", executedTx }]);
    await server.services.db.db.update(safeProposals).set({ state: "pending", executedTx: null }).where(eq(safeProposals.safeTxHash, hash));
    expect((await api.list(safe)).body.proposals[0].state, "reconciled again").to.equal("executed");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await deliveriesOf(on.id)).length, "still one delivery per step").to.equal(3);
    expect(bodies("/on").length).to.equal(3);
    expect(await deliveriesOf(off.id)).to.deep.equal([]);
  });

  it("History and the events answer the mint an executed proposal carried as a Mint via the Safe; other rows say nothing", async () => {
    const { safe } = deployment();
    const to = randomAddress();
    const nonce = Number((await api.safes()).body.safes[0].nonce);
    const tx = mintTx(to, usd("5"), nonce);
    const proposed = await api.propose(safe, tx, await sign(owner("admin"), safe, tx));
    expect(proposed.status, JSON.stringify(proposed.body)).to.equal(201);
    const executedTx = await execute(safe, tx, [owner("admin"), owner("approver")]);
    expect(
      (await api.list(safe)).body.proposals.find((p: { safeTxHash: string }) => p.safeTxHash === proposed.body.proposal.safeTxHash).state,
    ).to.equal("executed");
    const history = await until(
      "the index to hold the mint",
      () => call(server, "GET", `/api/accounts/${to}/history`),
      (answer) => answer.body.items?.length === 1,
    );
    expect(history.body.items[0]).to.deep.include({ type: "Mint", hash: executedTx, viaSafe: { address: safe, name: "Operations Safe" } });
    const events = await call(server, "GET", "/api/events?eventName=Transfer&limit=50");
    const mint = events.body.events.find((e: { transactionHash: string }) => e.transactionHash === executedTx);
    expect(mint.viaSafe).to.deep.equal({ address: safe, name: "Operations Safe" });
    const others = events.body.events.filter(
      (e: { transactionHash: string; viaSafe?: unknown }) => e.transactionHash !== executedTx && e.viaSafe,
    );
    // The first test's mint was a Safe's too; nothing else is.
    expect(others.every((e: { args: { to: string } }) => e.args.to !== to)).to.equal(true);
    const plain = events.body.events.find((e: { viaSafe?: unknown }) => e.viaSafe === undefined);
    expect(plain, "a row no Safe sent has no viaSafe").to.not.equal(undefined);
  });
});
