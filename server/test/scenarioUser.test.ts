import { expect } from "chai";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseUnits } from "ethers";
import { USDX__factory } from "@bindings";
import type { BankAccount, BankWallet, ChunkDetail, Contact, JobSummary, RecipientDetail } from "@common/apiTypes";
import { manifestPath, readManifest } from "@common/manifestFile";
import { seededAccount } from "@common/seedAccounts";
import { shortAddress } from "@common/wording";
import type { RunningServer } from "../src/index";
import type { ScenarioProgress } from "../src/services/scenarios";
import { applyScenario } from "../src/services/scenarios/apply";
import { applyCommand } from "../src/services/scenarios/applyCommand";
import { SCENARIOS_DIR, loadScenario } from "../src/services/scenarios/load";
import {
  type ScenarioAccounts,
  type UserChain,
  UserPartRefused,
  applyUser,
  planUser,
  planUserPayments,
  userPartThrough,
} from "../src/services/scenarios/user";
import { batchRecipients } from "../src/services/scenarios/userBatch";
import { ScenarioUser } from "../src/services/scenarios/userSchema";
import { call, passwordSignIn, provider, revert, seeded, snapshot, stack, startTestServer } from "./helpers";

/**
 * Issue 31, part 1: a scenario's Firebase test user, applied through a real API server (and the
 * Auth emulator, and the chain) as a client would: made, given contacts, bank accounts, a proved
 * wallet and a batch job left half paid; applied again, nothing is planned.
 */

/** The seeded accounts by name, each with its key: what the engine hands the user part. */
const accounts: ScenarioAccounts = {
  address: (name) => seeded(name).address,
  signer: async (name) => seeded(name),
};
const short = (name: string) => shortAddress(seeded(name).address);
const chain = (): UserChain => ({ provider: provider(), accounts });

let counter = 0;
const newEmail = () => `scenario-${Date.now()}-${counter++}@example.com`;

const refused = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("it was not refused"),
    (error: unknown) => {
      expect(error).to.be.instanceOf(UserPartRefused);
      return (error as Error).message;
    },
  );

describe("a scenario's Firebase test user, applied through the API (issue 31)", function () {
  this.timeout(150_000);
  let server: RunningServer;
  let chainSnapshot: string;
  const api = () => ({ url: server.url });

  before(async () => {
    chainSnapshot = await snapshot();
    // Chunks of 2: five recipients are three chunks, so one paid leaves the job half paid.
    server = await startTestServer({ BATCH_CHUNK_SIZE: "2", BANK_VERIFY_MS: "0" });
  });
  after(async () => {
    await server?.close();
    await revert(chainSnapshot);
  });

  it("makes the user with contacts, bank accounts, a proved wallet and a batch job one chunk paid; a second apply plans and does nothing", async () => {
    const user = ScenarioUser.parse({
      email: newEmail(),
      password: "tester-password",
      wallet: "alice",
      contacts: [
        { name: "Bob", address: "bob" },
        { name: "Coffee shop", address: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8", notes: "pays in USDX" },
      ],
      bankAccounts: [
        { name: "Everyday Checking", routingNumber: "021000021", accountNumber: "000123456789" },
        { name: "Rainy day", type: "savings", routingNumber: "011000015", accountNumber: "4321" },
      ],
      batch: { name: "Payroll", recipients: 5, amountEach: "2", paidChunks: 1 },
    });
    const planned = (await planUser(api(), chain(), user)).map((s) => s.label);
    expect(planned).to.deep.equal([
      `create the Firebase test user ${user.email}`,
      `add the contact Bob (${short("bob")})`,
      "add the contact Coffee shop (0x7099...79c8)",
      "add the bank account Everyday Checking (checking, ending 6789)",
      "add the bank account Rainy day (savings, ending 4321)",
      `add the wallet alice (${short("alice")}) to the user's bank wallets, signed by it`,
      "start the batch job 'Payroll': 5 recipients of 2 USDX, paid from alice",
      "pay chunk 1 of 3 of 'Payroll' from alice",
    ]);

    // What the payments will take from the payer (the engine funds it first): chunk 1, two recipients of 2 USDX.
    expect((await planUserPayments(api(), chain(), user)).payments).to.deep.equal({
      payer: "alice",
      address: seeded("alice").address,
      amounts: [parseUnits("2", 18), parseUnits("2", 18)],
    });

    const progress: ScenarioProgress[] = [];
    const applied = await applyUser(api(), chain(), user, (p) => progress.push(p));
    expect(applied.sent).to.equal(planned.length);
    expect(applied.steps.map((s) => s.label)).to.deep.equal(planned);
    expect(progress.map((p) => `${p.done}/${p.total}`)).to.deep.equal(planned.map((_, i) => `${i + 1}/${planned.length}`));
    expect(applied.report[0]).to.equal(`Firebase test user: ${user.email}, password tester-password (sign in to the dashboard with them).`);

    // Nothing left to do: nothing asked of the payer either (the token may stay paused, the payer blocked).
    expect(await planUserPayments(api(), chain(), user)).to.deep.equal({ steps: [], payments: null });
    const again = await applyUser(api(), chain(), user);
    expect(again.sent).to.equal(0);

    // Read back through the API, as the user.
    const token = await passwordSignIn(user.email, user.password);
    const get = async <T>(path: string) => {
      const answer = await call<T>(server, "GET", path, { token });
      expect(answer.status, path).to.equal(200);
      return answer.body;
    };
    const contacts = (await get<{ contacts: Contact[] }>("/api/contacts")).contacts;
    expect(contacts.map((c) => [c.name, c.address, c.notes])).to.have.deep.members([
      ["Bob", seeded("bob").address, null],
      ["Coffee shop", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "pays in USDX"],
    ]);
    const banks = (await get<{ accounts: BankAccount[] }>("/api/bank/accounts")).accounts;
    expect(banks.map((a) => [a.name, a.type, a.lastFour])).to.deep.equal([
      ["Everyday Checking", "checking", "6789"],
      ["Rainy day", "savings", "4321"],
    ]);
    const wallets = (await get<{ wallets: BankWallet[] }>("/api/bank/wallets")).wallets;
    expect(wallets.map((w) => [w.name, w.address, w.verified, w.verifiedBy, w.isPrimary])).to.deep.equal([
      ["alice", seeded("alice").address, true, "signature", true],
    ]);
    const jobs = (await get<{ jobs: JobSummary[] }>("/api/batch")).jobs;
    expect(jobs).to.have.length(1);
    expect(jobs[0].payer).to.equal(seeded("alice").address);
    expect(jobs[0].status).to.equal("processing");
    expect(jobs[0].recipientsPaid).to.equal(2);
    const job = await get<{ chunks: ChunkDetail[]; recipients: RecipientDetail[] }>(`/api/batch/${jobs[0].jobId}`);
    expect(job.chunks.map((c) => c.status)).to.deep.equal(["confirmed", "pending", "pending"]);
    expect(job.recipients.map((r) => [r.name, r.status])).to.deep.equal([
      ["Payroll 1", "paid"],
      ["Payroll 2", "paid"],
      ["Payroll 3", "pending"],
      ["Payroll 4", "pending"],
      ["Payroll 5", "pending"],
    ]);
    // And on the chain: the first chunk's two recipients hold their 2 USDX, the others nothing.
    const usdx = USDX__factory.connect(server.services.chain.manifest.proxy, provider());
    const held = await Promise.all(batchRecipients(user.email, user.batch!).map((r) => usdx.balanceOf(r.address)));
    expect(held.map((b) => b > 0n)).to.deep.equal([true, true, false, false, false]);
    expect(held[0] >= parseUnits("1.99", 18)).to.equal(true);
  });

  it("puts back what was removed or changed through the dashboard, and pays one more chunk when asked", async () => {
    const base = { email: newEmail(), password: "tester-password", wallet: "bob" };
    const first = ScenarioUser.parse({
      ...base,
      contacts: [
        { name: "Carol", address: "carol" },
        { name: "Erin", address: "erin" },
      ],
      batch: { recipients: 3, amountEach: "1", paidChunks: 1 },
    });
    await applyUser(api(), chain(), first);
    const token = await passwordSignIn(first.email, first.password);
    const contacts = (await call<{ contacts: Contact[] }>(server, "GET", "/api/contacts", { token })).body.contacts;
    // The tester deletes Carol and points Erin elsewhere.
    await call(server, "DELETE", `/api/contacts/${contacts.find((c) => c.name === "Carol")!.id}`, { token });
    await call(server, "PATCH", `/api/contacts/${contacts.find((c) => c.name === "Erin")!.id}`, {
      token,
      body: { address: seeded("dave").address },
    });
    const second = ScenarioUser.parse({ ...first, batch: { ...first.batch, paidChunks: 2 } });
    expect((await planUser(api(), chain(), second)).map((s) => s.label)).to.deep.equal([
      `add the contact Carol (${short("carol")})`,
      `change the contact Erin to ${short("erin")}`,
      "pay chunk 2 of 2 of 'Scenario batch' from bob",
    ]);
    // The stored job's second chunk: its one recipient's 1 USDX.
    expect((await planUserPayments(api(), chain(), second)).payments?.amounts).to.deep.equal([parseUnits("1", 18)]);
    await applyUser(api(), chain(), second);
    expect(await planUser(api(), chain(), second)).to.deep.equal([]);
    const after = (await call<{ contacts: Contact[] }>(server, "GET", "/api/contacts", { token })).body.contacts;
    expect(after.map((c) => [c.name, c.address])).to.have.deep.members([
      ["Carol", seeded("carol").address],
      ["Erin", seeded("erin").address],
    ]);
    const jobs = (await call<{ jobs: JobSummary[] }>(server, "GET", "/api/batch", { token })).body.jobs;
    expect(jobs.map((j) => [j.status, j.recipientsPaid])).to.deep.equal([["completed", 3]]);
  });

  it("refuses with a sentence, changing nothing: another password, an account it does not have, more paid chunks than the job has", async () => {
    const email = newEmail();
    await applyUser(api(), chain(), ScenarioUser.parse({ email, password: "first-password" }));
    expect(await refused(planUser(api(), chain(), ScenarioUser.parse({ email, password: "other-password" })))).to.equal(
      `The Firebase user ${email} already exists with another password than the scenario's: change the scenario's password, or delete the user in the Auth emulator.`,
    );
    const fresh = newEmail();
    expect(
      await refused(
        applyUser(api(), chain(), ScenarioUser.parse({ email: fresh, password: "pw-123456", contacts: [{ name: "Z", address: "zed" }] })),
      ),
    ).to.equal("user.contacts[0].address: the scenario has no account named 'zed'.");
    expect(
      await refused(
        applyUser(
          api(),
          chain(),
          ScenarioUser.parse({
            email: fresh,
            password: "pw-123456",
            wallet: "alice",
            batch: { recipients: 3, amountEach: "1", paidChunks: 3 },
          }),
        ),
      ),
    ).to.equal("The batch 'Scenario batch' has 2 chunks (3 recipients, up to 2 a chunk on this server): paidChunks must be at most 2.");
    // Neither refusal made the user.
    const res = await fetch(`http://${stack().emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=test-key`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: fresh, password: "pw-123456", returnSecureToken: true }),
    });
    expect(res.status).to.equal(400);
  });

  it("refuses the API's own refusal in its words: a batch whose payer is blocked", async () => {
    const user = ScenarioUser.parse({
      email: newEmail(),
      password: "tester-password",
      batch: { payer: "dave", recipients: 2, amountEach: "1", paidChunks: 1 },
    });
    const message = await refused(applyUser(api(), chain(), user));
    expect(message).to.equal(
      `Could not start the batch job 'Scenario batch': the API answered 400, The paying wallet ${seeded("dave").address} is blocked: it cannot send USDX.`,
    );
    expect(seededAccount("dave").blocked).to.equal(true);
  });

  it("the engine applies blocked-payer.yaml with its user through this API server: dave funded and unblocked, the first chunk paid, dave blocked again at his balance; a second apply sends nothing", async () => {
    const file = loadScenario(path.join(SCENARIOS_DIR, "blocked-payer.yaml"));
    // The file's user under an email of this test's own.
    const scenario = { ...file, user: { ...file.user!, email: newEmail() } };
    // The manifest in a directory of the test's own: the engine writes a Safe it creates into it.
    const dir = mkdtempSync(path.join(tmpdir(), "usdx-scenario-user-"));
    const env = { DEPLOYMENTS_DIR: dir };
    copyFileSync(manifestPath("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir }), manifestPath("localhost", env));
    const options = { provider: provider(), network: "localhost", env, userPart: userPartThrough(api()) };
    try {
      const first = await applyScenario(scenario, options);
      const labels = first.steps.map((s) => s.label);
      const userSteps = [
        `create the Firebase test user ${scenario.user.email}`,
        "add the contact Alice",
        "add the contact Bob",
        "add the bank account Everyday Checking",
        "add the wallet dave",
        "start the batch job 'Scenario batch'",
        "pay chunk 1 of 500 of 'Scenario batch' from dave",
      ];
      const at = userSteps.map((prefix) => labels.findIndex((l) => l.startsWith(prefix)));
      expect(at, labels.join("\n")).to.not.include(-1);
      expect(at).to.deep.equal([...at].sort((a, b) => a - b));
      // Dave (blocked in the seed) is unblocked before the user's steps and blocked again after them,
      // his balance set beforehand (the seed's, less what the chunk pays, is burned down to it).
      const unblock = labels.findIndex((l) => l.startsWith("unblock dave "));
      const balance = labels.findIndex((l) => / USDX (to|from) dave /.test(l));
      const block = labels.indexOf("block dave (as blocklister)");
      const order = [unblock, balance, at[0], at.at(-1)!, block];
      expect(order, labels.join("\n")).to.deep.equal([...order].sort((a, b) => a - b));
      expect(unblock).to.not.equal(-1);
      expect(first.report.at(-2)).to.equal(
        `Firebase test user: ${scenario.user.email}, password blocked-payer-test (sign in to the dashboard with them).`,
      );

      const usdx = USDX__factory.connect(readManifest("localhost", env).proxy, provider());
      expect(await usdx.isBlocked(seeded("dave").address)).to.equal(true);
      // His balance is the file's: at most the multiplier's rounding (a wei or so) above it.
      expect(Number((await usdx.balanceOf(seeded("dave").address)) - parseUnits("1000", 18))).to.be.within(0, 2);

      const again = await applyScenario(scenario, options);
      expect(again.steps).to.deep.equal([]);
      expect(again.sent).to.equal(0);

      // The job, as its user sees it: the first chunk confirmed, the rest waiting for dave.
      const token = await passwordSignIn(scenario.user.email, scenario.user.password);
      const jobs = (await call<{ jobs: JobSummary[] }>(server, "GET", "/api/batch", { token })).body.jobs;
      expect(jobs.map((j) => [j.recipients, j.recipientsPaid])).to.deep.equal([[1000, 2]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the CLI's apply: the user's part through --api-url, or npm start's server when one answers; without one, the chain's part and a note; a named server that does not answer is refused", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "usdx-scenario-cli-"));
    const env = { ...process.env, DEPLOYMENTS_DIR: dir, SERVER_PORT: "9" };
    copyFileSync(manifestPath("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir }), manifestPath("localhost", env));
    const file = path.join(SCENARIOS_DIR, "blocked-payer.yaml");
    const lines: string[] = [];
    const cli = (...args: string[]) => applyCommand(["--rpc-url", stack().rpcUrl, ...args], (line) => lines.push(line), { env });
    try {
      await cli(file, "--dry-run");
      expect(lines).to.include(
        "  - the Firebase test user's part needs the API server, and none answers at http://127.0.0.1:9 (start the stack with npm start, or pass --api-url): not applied",
      );
      lines.length = 0;
      await cli(file, "--dry-run", "--api-url", server.url);
      // The file's user, planned through this server (made, unless an earlier run made it already).
      expect(
        lines.some((l) => / (create the Firebase test user|add the contact Alice|start the batch job)/.test(l)),
        lines.join("\n"),
      ).to.equal(true);
      expect(lines).to.include("Dry run: nothing sent.");
      const failure = (promise: Promise<unknown>) =>
        promise.then(
          () => expect.fail("it was not refused"),
          (error: unknown) => (error as Error).message,
        );
      const block = await provider().getBlockNumber();
      expect(await failure(cli(file, "--api-url=http://127.0.0.1:9"))).to.match(
        /^Could not read the server's settings: the API server at http:\/\/127\.0\.0\.1:9 does not answer/,
      );
      expect(await provider().getBlockNumber(), "nothing was sent").to.equal(block);
      expect(await failure(cli(file, "--api-url"))).to.match(/^--api-url needs a URL/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
