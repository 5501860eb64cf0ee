import { expect } from "chai";
import { HDNodeWallet, Wallet } from "ethers";
import type { AuditEntry } from "@common/apiTypes";
import { auditLog } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { NOT_THE_ORACLE } from "../src/routes/admin";
import { call, emailUser, operationsSafe, seeded, startTestServer, walletUser } from "./helpers";

describe("POST /api/reward-multiplier and GET /api/audit", () => {
  let server: RunningServer;
  const admin = Wallet.createRandom();
  let user: { idToken: string; uid: string; email: string };
  /** The seeded oracle's wallet (it holds ORACLE_ROLE), signed in with SIWE. */
  let oracle: string;
  let oracleWallet: HDNodeWallet;

  before(async () => {
    server = await startTestServer({ ADMIN_WALLETS: admin.address });
    user = await emailUser();
    oracleWallet = seeded("oracle");
    oracle = (await walletUser(server, oracleWallet as unknown as Wallet)).idToken;
  });
  after(async () => {
    await server.close();
  });

  const rows = () => server.services.db.db.select().from(auditLog);

  it("records a valid request with the oracle's wallet session, and the admin reads it back", async () => {
    const answer = await call(server, "POST", "/api/reward-multiplier", {
      token: oracle,
      body: { value: "1.0125", operation: "set" },
    });
    expect(answer.status).to.equal(201);
    expect(answer.body.success).to.equal(true);
    const { idToken } = await walletUser(server, admin as unknown as Wallet);
    const audit = await call(server, "GET", "/api/audit", { token: idToken });
    const entry = audit.body.entries.find((e: AuditEntry) => e.id === answer.body.id);
    expect(entry).to.include({
      uid: `wallet:${oracleWallet.address.toLowerCase()}`,
      wallet: oracleWallet.address,
      action: "reward-multiplier",
    });
    expect(entry?.details).to.deep.equal({
      operation: "set",
      value: "1.0125",
      valueRaw: "1012500000000000000",
      wallet: oracleWallet.address,
      via: "ORACLE_ROLE",
    });
  });

  it("accepts 'add' with a small increment", async () => {
    const answer = await call(server, "POST", "/api/reward-multiplier", { token: oracle, body: { value: "0.01", operation: "add" } });
    expect(answer.status).to.equal(201);
  });

  describe("only who may change the multiplier records a change (issue 29, item 14)", () => {
    it("refuses a plain email account with a sentence, and records nothing", async () => {
      const before = (await rows()).length;
      const answer = await call(server, "POST", "/api/reward-multiplier", {
        token: user.idToken,
        body: { value: "1.1", operation: "set" },
      });
      expect(answer.status).to.equal(403);
      expect(answer.body.error).to.equal(NOT_THE_ORACLE);
      expect((await rows()).length).to.equal(before);
    });

    it("refuses a wallet signed in with SIWE that neither holds ORACLE_ROLE nor owns a Safe that does", async () => {
      const before = (await rows()).length;
      for (const wallet of [Wallet.createRandom(), seeded("alice"), seeded("burner")]) {
        const { idToken } = await walletUser(server, wallet as unknown as Wallet);
        const answer = await call(server, "POST", "/api/reward-multiplier", { token: idToken, body: { value: "0.01", operation: "add" } });
        expect(answer.status, wallet.address).to.equal(403);
        expect(answer.body.error).to.equal(NOT_THE_ORACLE);
      }
      expect((await rows()).length).to.equal(before);
    });

    it("records an owner of a Safe that holds ORACLE_ROLE, naming the wallet and the Safe", async () => {
      // The minter owns the Operations Safe (which holds ORACLE_ROLE) but does not hold the role itself.
      const minter = seeded("minter");
      const { idToken } = await walletUser(server, minter as unknown as Wallet);
      const answer = await call(server, "POST", "/api/reward-multiplier", { token: idToken, body: { value: "0.01", operation: "add" } });
      expect(answer.status).to.equal(201);
      const [entry] = (await rows()).filter((row) => row.id === answer.body.id);
      expect(entry.details).to.deep.include({ wallet: minter.address, via: "Safe", safe: operationsSafe() });
    });
  });

  it("refuses an anonymous request and changes nothing", async () => {
    const before = (await rows()).length;
    const answer = await call(server, "POST", "/api/reward-multiplier", { body: { value: "1.1", operation: "set" } });
    expect(answer.status).to.equal(401);
    expect((await rows()).length).to.equal(before);
  });

  for (const [body, error] of [
    [{ value: "-1", operation: "add" }, /Invalid value: '-1' is not a plain decimal amount/],
    [{ value: "1e18", operation: "set" }, /Invalid value: '1e18' is not a plain decimal amount/],
    [{ value: "1.0000000000000000001", operation: "set" }, /has 19 decimals/],
    [{ value: "0", operation: "add" }, /Please enter a valid positive number/],
    [{ value: "0.5", operation: "set" }, /cannot be set below 1.0/],
    [{ value: "1.1", operation: "multiply" }, /operation: must be 'set' or 'add'/],
    [{ value: 1.1, operation: "set" }, /value: /],
    [{ operation: "set" }, /value: /],
    [[], /Invalid request body/],
  ] as const) {
    it(`answers 400 for ${JSON.stringify(body)} and stores nothing`, async () => {
      const before = (await rows()).length;
      const answer = await call(server, "POST", "/api/reward-multiplier", { token: user.idToken, body });
      expect(answer.status).to.equal(400);
      expect(answer.body.error).to.match(error);
      expect((await rows()).length).to.equal(before);
    });
  }

  it("refuses the audit log to a signed-in user without the admin claim", async () => {
    const answer = await call(server, "GET", "/api/audit", { token: user.idToken });
    expect(answer.status).to.equal(403);
  });
});
