import { expect } from "chai";
import { Wallet } from "ethers";
import type { AuditEntry } from "@common/apiTypes";
import { auditLog } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { call, emailUser, startTestServer, walletUser } from "./helpers";

describe("POST /api/reward-multiplier and GET /api/audit", () => {
  let server: RunningServer;
  const admin = Wallet.createRandom();
  let user: { idToken: string; uid: string; email: string };

  before(async () => {
    server = await startTestServer({ ADMIN_WALLETS: admin.address });
    user = await emailUser();
  });
  after(async () => {
    await server.close();
  });

  const rows = () => server.services.db.db.select().from(auditLog);

  it("records a valid request with the signed-in user, and the admin reads it back", async () => {
    const answer = await call(server, "POST", "/api/reward-multiplier", {
      token: user.idToken,
      body: { value: "1.0125", operation: "set" },
    });
    expect(answer.status).to.equal(201);
    expect(answer.body.success).to.equal(true);
    const { idToken } = await walletUser(server, admin as unknown as Wallet);
    const audit = await call(server, "GET", "/api/audit", { token: idToken });
    const entry = audit.body.entries.find((e: AuditEntry) => e.id === answer.body.id);
    expect(entry).to.include({ uid: user.uid, email: user.email, wallet: null, action: "reward-multiplier" });
    expect(entry?.details).to.deep.equal({ operation: "set", value: "1.0125", valueRaw: "1012500000000000000" });
  });

  it("accepts 'add' with a small increment", async () => {
    const answer = await call(server, "POST", "/api/reward-multiplier", { token: user.idToken, body: { value: "0.01", operation: "add" } });
    expect(answer.status).to.equal(201);
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
