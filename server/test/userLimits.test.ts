import { expect } from "chai";
import { eq } from "drizzle-orm";
import { getAddress, hexlify, randomBytes } from "ethers";
import type { Contact } from "@common/apiTypes";
import { batchChunks, batchJobs, contacts } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { utcTime } from "../src/lib/timeWords";
import { ConfigError } from "../src/config";
import { call, emailUser, startTestServer, testConfig } from "./helpers";

/** Issue 13, part 3: per-user limits answer 429 with a sentence that names the limit and when it frees up, and store nothing. */

const randomAddress = () => getAddress(hexlify(randomBytes(20)));
const randomHash = () => hexlify(randomBytes(32));
const DAY_MS = 24 * 3_600_000;

describe("per-user limits (config.limits)", () => {
  let server: RunningServer;

  before(async () => {
    server = await startTestServer({
      USER_MAX_OPEN_BATCHES: "2",
      USER_MAX_BATCH_ROWS_PER_DAY: "5",
      USER_BATCH_REPORTS_PER_MINUTE: "2",
      USER_MAX_CONTACTS: "3",
    });
  });
  after(async () => {
    await server.close();
  });

  const db = () => server.services.db.db;
  const execute = (token: string, rows: number) =>
    call(server, "POST", "/api/batch/execute", {
      token,
      body: { recipients: Array.from({ length: rows }, () => randomAddress()), amount: "1" },
    });
  const jobsOf = (uid: string) => db().select().from(batchJobs).where(eq(batchJobs.uid, uid)).orderBy(batchJobs.createdAt);
  const contactsOf = (uid: string) => db().select().from(contacts).where(eq(contacts.uid, uid));

  it("reads the limits from the environment, with defaults for real users", () => {
    expect(server.services.config.limits).to.deep.equal({
      openBatchJobs: 2,
      batchRowsPerDay: 5,
      batchReportsPerMinute: 2,
      contacts: 3,
      safeWritesPerMinute: 30,
      safeLookupsPerMinute: 30,
      scenarioRunsPerMinute: 10,
    });
    expect(testConfig().limits).to.deep.equal({
      openBatchJobs: 5,
      batchRowsPerDay: 20_000,
      batchReportsPerMinute: 30,
      contacts: 10_000,
      safeWritesPerMinute: 30,
      safeLookupsPerMinute: 30,
      scenarioRunsPerMinute: 10,
    });
    expect(() => testConfig({ USER_MAX_CONTACTS: "0" })).to.throw(
      ConfigError,
      "USER_MAX_CONTACTS must be a whole number from 1 to 10000000, not '0'.",
    );
  });

  it("batch jobs in progress: the next one is refused with 429 until one of them ends, and nothing is stored", async () => {
    const user = await emailUser();
    expect((await execute(user.idToken, 1)).status).to.equal(201);
    expect((await execute(user.idToken, 1)).status).to.equal(201);
    const [oldest] = await jobsOf(user.uid);
    const refused = await execute(user.idToken, 1);
    expect(refused.status).to.equal(429);
    expect(refused.body).to.deep.equal({
      success: false,
      error:
        "You have 2 batch payments in progress, the most allowed at once is 2: start this one when one of them completes or fails. " +
        `A batch not fully sent fails 1 hour after it started (your oldest in progress started at ${utcTime(oldest.createdAt)}).`,
    });
    expect(await jobsOf(user.uid)).to.have.length(2);
    // A job that ended (completed or failed) no longer counts.
    await db().update(batchJobs).set({ status: "failed" }).where(eq(batchJobs.id, oldest.id));
    expect((await execute(user.idToken, 1)).status).to.equal(201);
  });

  it("recipients a day: a batch that would pass the limit is refused with 429 and the time it fits, and nothing is stored", async () => {
    const user = await emailUser();
    expect((await execute(user.idToken, 3)).status).to.equal(201);
    const [first] = await jobsOf(user.uid);
    const refused = await execute(user.idToken, 3);
    expect(refused.status).to.equal(429);
    expect(refused.body).to.deep.equal({
      success: false,
      error: `Daily limit reached: you started batches for 3 recipients in the last 24 hours and at most 5 are allowed in 24 hours, so this batch of 3 cannot start before ${utcTime(new Date(first.createdAt.getTime() + DAY_MS))}.`,
    });
    expect(await jobsOf(user.uid)).to.have.length(1);
    // What is left today still goes.
    expect((await execute(user.idToken, 2)).status).to.equal(201);
    // Failed jobs count too (their rows were stored); a job older than 24 hours does not.
    await db()
      .update(batchJobs)
      .set({ status: "failed", createdAt: new Date(Date.now() - DAY_MS - 60_000) })
      .where(eq(batchJobs.id, first.id));
    expect((await execute(user.idToken, 3)).status).to.equal(201);

    const big = await execute((await emailUser()).idToken, 6);
    expect(big.status).to.equal(429);
    expect(big.body.error).to.equal("This batch has 6 recipients; at most 5 can be paid in 24 hours, so split it into smaller batches.");
  });

  it("transaction reports a minute: the next is refused with 429, the chunk keeps the last one accepted, and other users are not affected", async () => {
    const user = await emailUser();
    const job = (await execute(user.idToken, 1)).body.jobId as string;
    const report = (token: string, jobId: string, txHash: unknown) =>
      call(server, "POST", `/api/batch/${jobId}/transactions`, { token, body: { chunkIndex: 0, txHash } });
    const second = randomHash();
    expect((await report(user.idToken, job, randomHash())).status).to.equal(200);
    expect((await report(user.idToken, job, second)).status).to.equal(200);
    const refused = await report(user.idToken, job, randomHash());
    expect(refused.status).to.equal(429);
    expect(refused.body).to.deep.equal({
      success: false,
      error: "Too many transaction reports (at most 2 a minute): wait a minute and try again.",
    });
    const [chunk] = await db().select().from(batchChunks).where(eq(batchChunks.jobId, job));
    expect(chunk.txHash).to.equal(second);
    // A malformed report is refused for what it is, and not counted.
    expect((await report(user.idToken, job, "0x1234")).status).to.equal(400);

    const other = await emailUser();
    const theirs = (await execute(other.idToken, 1)).body.jobId as string;
    expect((await report(other.idToken, theirs, randomHash())).status).to.equal(200);
  });

  it("contacts: an add past the limit is refused with 429 and stores nothing; deleting one makes room", async () => {
    const user = await emailUser();
    const add = (address: string) => call(server, "POST", "/api/contacts", { token: user.idToken, body: { name: "Payee", address } });
    const first = randomAddress();
    const added = [];
    for (const address of [first, randomAddress(), randomAddress()]) {
      const answer = await add(address);
      expect(answer.status).to.equal(201);
      added.push(answer.body.contact.id);
    }
    const refused = await add(randomAddress());
    expect(refused.status).to.equal(429);
    expect(refused.body).to.deep.equal({
      success: false,
      error: "Contact limit reached - You have 3 contacts, the most one account may keep: delete some to add more",
    });
    // A duplicate is still named as one.
    expect((await add(first)).status).to.equal(409);
    expect(await contactsOf(user.uid)).to.have.length(3);
    expect((await call(server, "DELETE", `/api/contacts/${added[0]}`, { token: user.idToken })).status).to.equal(200);
    expect((await add(randomAddress())).status).to.equal(201);
  });

  it("contacts: an import adds the good rows up to the limit and reports each row past it, adding none of them", async () => {
    const user = await emailUser();
    expect(
      (await call(server, "POST", "/api/contacts", { token: user.idToken, body: { name: "Old", address: randomAddress() } })).status,
    ).to.equal(201);
    const [a, b, c] = [randomAddress(), randomAddress(), randomAddress()];
    const csvData = ["Name,Address", `A,${a}`, "Bad,0x1234", `B,${b}`, `C,${c}`].join("\n");
    const answer = await call(server, "POST", "/api/contacts/import", { token: user.idToken, body: { csvData } });
    expect(answer.status).to.equal(200);
    expect(answer.body.imported).to.equal(2);
    expect(answer.body.contacts.map((x: Contact) => x.address)).to.deep.equal([a, b]);
    const past =
      "Contact limit reached - At most 3 contacts per account: this row was not added (delete some contacts and import it again)";
    expect(answer.body.skipped).to.deep.equal([
      { line: 3, reason: "Invalid address - Please enter a valid Ethereum address" },
      { line: 5, reason: past },
    ]);
    const stored = await contactsOf(user.uid);
    expect(stored.map((x) => x.address)).to.not.include(c);
    expect(stored).to.have.length(3);

    // At the limit, an import adds nothing and says so for each good row.
    const again = await call(server, "POST", "/api/contacts/import", {
      token: user.idToken,
      body: { csvData: `Name,Address\nD,${randomAddress()}\n` },
    });
    expect(again.body).to.deep.include({ imported: 0, skipped: [{ line: 2, reason: past }] });
    expect(await contactsOf(user.uid)).to.have.length(3);
  });
});
