import { expect } from "chai";
import http from "node:http";
import { and, eq, sql } from "drizzle-orm";
import { HDNodeWallet, JsonRpcProvider, parseUnits } from "ethers";
import { BatchPayments__factory, USDX__factory } from "@bindings";
import { exactTokenAmount } from "@common/amounts";
import type { ContractEvent, EventPage, HistoryEntry, HistoryPage, RecipientDetail } from "@common/apiTypes";
import { seededAccount } from "@common/seedAccounts";
import { batchRecipients } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import {
  BATCH_CSV_HEADER,
  EVENTS_CSV_HEADER,
  EXPORT_PAGE_ROWS,
  HISTORY_CSV_HEADER,
  readableArguments,
} from "../src/services/indexing/exports";
import { RECIPIENT_STATUS_WORDS } from "@common/batch";
import { BatchPlan, call, emailUser, provider, randomAddress, revert, seeded, snapshot, startTestServer, walletUser } from "./helpers";

/**
 * Issue 18's exports for the books: an account's history, Contract Events with a filter and a
 * batch job's recipients, each row for row the JSON endpoint's, in chain (or job) order; ranges by
 * block and by day; formula-safe cells; sign-in, ownership and the shared limit; and streaming (a
 * client that stops reading stops the reads, and the server answers others meanwhile).
 */

const DAY = 86_400;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
const utcDay = (seconds: number) => iso(seconds).slice(0, 10);
/** A hardhat account nobody else uses: its history is this file's own. */
const ACCOUNT_INDEX = 16;
/**
 * Names as given, and as the export's cell (OWASP's CSV-injection rule): in double quotes, and with
 * a leading apostrophe when the cell, or a part a reader would split off at , ; or a tab, starts a formula.
 */
const RISKY_NAMES: [string, string][] = [
  ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
  ["+1+1", `"'+1+1"`],
  ["-2", `"'-2"`],
  ["@SUM(A1)", `"'@SUM(A1)"`],
  ["Plain Payee", `"Plain Payee"`],
  ["x;=1+1", `"'x;=1+1"`],
  ["a,@SUM(1)", `"'a,@SUM(1)"`],
  ['"=1"', `"'""=1"""`],
  ["Smith; Jones, Ltd", `"Smith; Jones, Ltd"`],
  // The API refuses a tab in a name; a row stored before that rule may still hold one (set in the database below).
  ["\t=1+1", `"'\t=1+1"`],
];

/** A CSV line as the exports write it: every cell in double quotes, a double quote doubled. */
const csvLine = (cells: readonly (string | number)[]) => cells.map((cell) => `"${String(cell).replace(/"/g, '""')}"`).join(",");

/** The data lines of a CSV answer (after checking its header and final line end). */
function csvRows(text: string, header: readonly string[]): string[] {
  const lines = text.split("\r\n");
  expect(lines.pop(), "the file ends with a line end").to.equal("");
  expect(lines[0]).to.equal(csvLine(header));
  return lines.slice(1);
}

describe("CSV exports: history, Contract Events, batch recipients", function () {
  this.timeout(120_000);
  let server: RunningServer;
  let chainSnapshot: string;
  let node: JsonRpcProvider;
  let alice: HDNodeWallet;
  let aliceToken: string;
  let otherToken: string;
  let account: string;
  /** Blocks and times of the account's own transfers, oldest first. */
  const marks: { block: number; time: number }[] = [];
  let jobId: string;

  const get = (path: string, token: string | null = aliceToken) => call(server, "GET", path, { token: token ?? undefined });
  const usdx = () => USDX__factory.connect(server.services.chain.manifest.proxy, node);

  /** Every history entry through the JSON pages, in chain order. */
  async function historyJson(address: string): Promise<HistoryEntry[]> {
    const items: HistoryEntry[] = [];
    for (let cursor: string | null = null; ;) {
      const answer = await get(`/api/accounts/${address}/history?limit=200${cursor ? `&cursor=${cursor}` : ""}`);
      const page = answer.body as HistoryPage;
      items.push(...page.items);
      cursor = page.nextCursor;
      if (!cursor) return items.reverse();
    }
  }

  /** Every event GET /api/events finds for `query`, in chain order. */
  async function eventsJson(query: string): Promise<ContractEvent[]> {
    const events: ContractEvent[] = [];
    for (let cursor: string | null = null; ;) {
      const page = (await get(`/api/events?${query}&limit=100${cursor ? `&cursor=${cursor}` : ""}`)).body as EventPage;
      events.push(...page.events);
      cursor = page.cursor;
      if (!cursor) return events.reverse();
    }
  }

  const historyLine = (e: HistoryEntry) =>
    csvLine([iso(e.timestamp), e.blockNumber, e.hash, e.logIndex, e.type, e.from, e.to, e.amount, exactTokenAmount(BigInt(e.amountMoved))]);

  before(async () => {
    node = provider();
    chainSnapshot = await snapshot();
    server = await startTestServer({ BATCH_CHUNK_SIZE: "3" });
    alice = seeded("alice");
    aliceToken = (await walletUser(server, alice as never)).idToken;
    otherToken = (await emailUser()).idToken;

    // The account's history: mints and transfers a day or more apart, a transfer to itself, and a
    // dust transfer at a multiplier above 1.0 that moves no share (its Amount moved is 0).
    const signer = await node.getSigner(ACCOUNT_INDEX);
    account = await signer.getAddress();
    const minter = usdx().connect(await node.getSigner(seededAccount("minter").index));
    const oracle = usdx().connect(await node.getSigner(seededAccount("oracle").index));
    const own = usdx().connect(signer);
    const steps = [
      () => minter.mint(account, parseUnits("1000", 18)),
      () => own.transfer(alice.address, parseUnits("12.5", 18)),
      () => own.transfer(account, parseUnits("1", 18)),
      () => oracle.setRewardMultiplier(parseUnits("1.5", 18)),
      () => own.transfer(alice.address, 1n),
      () => minter.mint(account, parseUnits("3.25", 18)),
    ];
    for (const step of steps) {
      await node.send("evm_increaseTime", [2 * DAY]);
      const receipt = await (await step()).wait();
      const block = await node.getBlock(receipt!.blockNumber);
      marks.push({ block: receipt!.blockNumber, time: block!.timestamp });
    }

    // A job whose names a spreadsheet would run (also once split at a separator), paid chunk by chunk as a wallet without a permit pays.
    const recipients = RISKY_NAMES.map(([name], i) => ({
      name: name.trim(),
      address: randomAddress(),
      amount: `${i + 1}.5`,
    }));
    const started = await call(server, "POST", "/api/batch/execute", { token: aliceToken, body: { recipients } });
    expect(started.status, JSON.stringify(started.body)).to.equal(201);
    const plan = started.body as BatchPlan;
    jobId = plan.jobId;
    await server.services.db.db
      .update(batchRecipients)
      .set({ name: "\t=1+1" })
      .where(and(eq(batchRecipients.jobId, jobId), eq(batchRecipients.name, "=1+1")));
    const { batchPayments } = server.services.chain.manifest;
    const chunk = plan.chunks[0]; // the second chunk stays unpaid: its rows are Pending
    await (
      await USDX__factory.connect(server.services.chain.manifest.proxy, alice.connect(node)).approve(batchPayments, chunk.total)
    ).wait();
    const tx = await BatchPayments__factory.connect(batchPayments, alice.connect(node)).pay(
      chunk.recipients,
      chunk.amounts,
      chunk.reference,
    );
    await tx.wait();
    expect(
      (await call(server, "POST", `/api/batch/${jobId}/transactions`, { token: aliceToken, body: { chunkIndex: 0, txHash: tx.hash } }))
        .status,
    ).to.equal(200);
    await server.services.indexer.syncOnce();
    await server.services.batchWatcher.runOnce();
  });
  after(async () => {
    await server.close();
    await revert(chainSnapshot);
  });

  it("exports an account's whole history in chain order, row for row GET history's", async () => {
    const answer = await get(`/api/accounts/${account.toLowerCase()}/history/export`);
    expect(answer.status).to.equal(200);
    expect(answer.headers.get("content-type")).to.equal("text/csv; charset=utf-8");
    expect(answer.headers.get("content-disposition")).to.equal(`attachment; filename="usdx_history_${account}.csv"`);
    expect(answer.headers.get("cache-control")).to.equal("no-store");
    const json = await historyJson(account);
    expect(json.map((e) => e.blockNumber)).to.deep.equal(marks.filter((_, i) => i !== 3).map((m) => m.block)); // all but the multiplier's block
    expect(csvRows(answer.body as unknown as string, HISTORY_CSV_HEADER)).to.deep.equal(json.map(historyLine));
    // The dust transfer moved nothing, and says so.
    const dust = json.find((e) => e.amountRaw === "1")!;
    expect(dust.amountMoved).to.equal("0");
    expect(historyLine(dust)).to.match(/,"0\.000000000000000001","0"$/);
  });

  it("exports a block range and a range of days, each end inclusive", async () => {
    const json = await historyJson(account);
    const byBlock = await get(`/api/accounts/${account}/history/export?fromBlock=${marks[1].block}&toBlock=${marks[4].block}`);
    expect(csvRows(byBlock.body as unknown as string, HISTORY_CSV_HEADER)).to.deep.equal(
      json.filter((e) => e.blockNumber >= marks[1].block && e.blockNumber <= marks[4].block).map(historyLine),
    );
    const [from, to] = [utcDay(marks[2].time), utcDay(marks[5].time)];
    const byDate = await get(`/api/accounts/${account}/history/export?fromDate=${from}&toDate=${to}`);
    const inDays = json.filter((e) => utcDay(e.timestamp) >= from && utcDay(e.timestamp) <= to);
    expect(inDays.length).to.be.within(2, json.length - 1);
    expect(csvRows(byDate.body as unknown as string, HISTORY_CSV_HEADER)).to.deep.equal(inDays.map(historyLine));
    // Both at once: the rows in both.
    const both = await get(`/api/accounts/${account}/history/export?fromDate=${from}&toBlock=${marks[4].block}`);
    expect(csvRows(both.body as unknown as string, HISTORY_CSV_HEADER)).to.deep.equal(
      inDays.filter((e) => e.blockNumber <= marks[4].block).map(historyLine),
    );
    // Past the index's head, or before anything: an empty file with its header.
    const none = await get(`/api/accounts/${account}/history/export?fromBlock=999999999`);
    expect(csvRows(none.body as unknown as string, HISTORY_CSV_HEADER)).to.deep.equal([]);
  });

  it("refuses a range whose start is after its end, a date that is not one, and a bad address, in sentences", async () => {
    const refusals: [string, string | RegExp][] = [
      [`/api/accounts/${account}/history/export?fromBlock=9&toBlock=3`, "fromBlock (9) is after toBlock (3)."],
      [
        `/api/accounts/${account}/history/export?fromDate=2026-02-01&toDate=2026-01-31`,
        "fromDate (2026-02-01) is after toDate (2026-01-31).",
      ],
      [`/api/accounts/${account}/history/export?fromDate=2026-02-30`, "Invalid request query: fromDate: must be a date as YYYY-MM-DD"],
      [`/api/accounts/${account}/history/export?toDate=31/01/2026`, "Invalid request query: toDate: must be a date as YYYY-MM-DD"],
      ["/api/accounts/0x1234/history/export", "Invalid request path: address: must be 0x followed by 40 hex characters"],
      ["/api/events/export?fromBlock=5&toBlock=3", "fromBlock (5) is after toBlock (3)."],
      ["/api/events/export?eventName=Nope", /^Unknown eventName 'Nope': use one of All Events, Transfer, /],
    ];
    for (const [path, error] of refusals) {
      const answer = await get(path);
      expect(answer.status, path).to.equal(400);
      if (typeof error === "string") expect(answer.body.error, path).to.equal(error);
      else expect(answer.body.error, path).to.match(error);
    }
  });

  it("exports Contract Events with GET /api/events' filter, every one in chain order", async () => {
    for (const query of [
      "eventName=Transfer",
      `eventName=RewardMultiplierUpdated&fromBlock=${marks[0].block}`,
      `fromBlock=${marks[1].block}&toBlock=${marks[4].block}`,
      "",
    ]) {
      const answer = await get(`/api/events/export?${query}`);
      expect(answer.status, query).to.equal(200);
      expect(answer.headers.get("content-disposition")).to.equal('attachment; filename="usdx_events.csv"');
      const json = await eventsJson(query);
      expect(json.length, query).to.be.greaterThan(0);
      const lines = json.map((e) =>
        csvLine([
          iso(e.timestamp),
          e.blockNumber,
          e.transactionHash,
          e.logIndex,
          e.contract,
          e.name,
          readableArguments(e.name, e.args),
          e.amountMoved ? exactTokenAmount(BigInt(e.amountMoved)) : "",
        ]),
      );
      expect(csvRows(answer.body as unknown as string, EVENTS_CSV_HEADER), query).to.deep.equal(lines);
    }
    const multiplier = (
      await get(`/api/events/export?eventName=RewardMultiplierUpdated&fromBlock=${marks[3].block}&toBlock=${marks[3].block}`)
    ).body as unknown as string;
    expect(csvRows(multiplier, EVENTS_CSV_HEADER)[0]).to.match(/,"USDX","RewardMultiplier","value=1\.5",""$/);
  });

  it("exports a batch job's recipients in job order with status, transaction and block, formulas made inert", async () => {
    const answer = await get(`/api/batch/${jobId}/export`);
    expect(answer.status).to.equal(200);
    expect(answer.headers.get("content-disposition")).to.equal(`attachment; filename="usdx_batch_${jobId}.csv"`);
    const detail = (await get(`/api/batch/${jobId}`)).body as {
      chunks: { index: number; blockNumber: number | null }[];
      recipients: RecipientDetail[];
    };
    const blockOf = (r: RecipientDetail) => (r.status === "paid" ? String(detail.chunks[r.chunkIndex].blockNumber) : "");
    const rows = csvRows(answer.body as unknown as string, BATCH_CSV_HEADER);
    expect(detail.recipients.map((r) => r.name)).to.deep.equal(RISKY_NAMES.map(([name]) => name));
    expect(rows).to.deep.equal(
      detail.recipients.map((r, i) =>
        [
          RISKY_NAMES[i][1],
          ...[r.address, r.amount, RECIPIENT_STATUS_WORDS[r.status], r.txHash ?? "", blockOf(r)].map((c) => csvLine([c])),
        ].join(","),
      ),
    );
    expect(rows.slice(0, 3).every((row) => row.includes(',"Paid","0x'))).to.equal(true);
    expect(rows[4]).to.match(/,"Pending","",""$/);
  });

  it("answers 401 signed out, 404 for another user's job and 429 past the exports shared per minute", async () => {
    for (const path of [`/api/accounts/${account}/history/export`, "/api/events/export", `/api/batch/${jobId}/export`]) {
      const answer = await get(path, null);
      expect(answer.status, path).to.equal(401);
    }
    const other = await get(`/api/batch/${jobId}/export`, otherToken);
    expect(other.status).to.equal(404);
    expect(other.body.error).to.equal(`No batch job ${jobId} among yours.`);

    const limited = await startTestServer({ RATE_LIMIT_CSV_PER_MINUTE: "3" });
    try {
      const statuses: number[] = [];
      for (const path of [
        `/api/accounts/${account}/history/export`,
        "/api/events/export?fromBlock=abc",
        "/api/events/export",
        "/api/holders/export",
        `/api/batch/${jobId}/export`,
      ]) {
        statuses.push((await call(limited, "GET", path, { token: aliceToken })).status);
      }
      // A malformed query is refused before it is counted; the third export uses the budget up for all four kinds.
      expect(statuses.slice(0, 4)).to.deep.equal([200, 400, 200, 200]);
      const refused = await call(limited, "GET", `/api/batch/${jobId}/export`, { token: aliceToken });
      expect(refused.status).to.equal(429);
      expect(refused.body.error).to.equal("Too many CSV exports: wait a minute and try again.");
      expect((await call(limited, "GET", "/api/events", { token: aliceToken })).status, "pages are not exports").to.equal(200);
    } finally {
      await limited.close();
    }
  });

  it("streams: a client that stops reading keeps no read going, and others are answered meanwhile", async () => {
    // Twenty pages of Approval rows in the head's block (only this server's database holds them).
    const pages = 20;
    const head = (await server.services.events.indexedBlock())!;
    await server.services.db.db.execute(sql`
      insert into chain_events (block_number, log_index, block_hash, block_time, transaction_hash, contract, event_name, signature, args)
      select ${head}::bigint, 100000 + g, '0x' || repeat('b', 64), 1767225600, '0x' || lpad(to_hex(g), 64, '0'), 'USDX', 'Approval', 'Approval(address,address,uint256)',
        jsonb_build_object('owner', ${account}::text, 'spender', ${alice.address}::text, 'value', '1000000000000000000')
      from generate_series(1, ${pages * EXPORT_PAGE_ROWS}) g`);

    // Counts the pages the export reads.
    let reads = 0;
    const exportsService = server.services.exports as unknown as {
      pages(read: (p: unknown) => Promise<unknown[]>): AsyncGenerator<unknown>;
    };
    const pagesOf = exportsService.pages.bind(exportsService);
    exportsService.pages = (read) => pagesOf(async (p) => ((reads += 1), read(p)));
    try {
      const url = new URL(`${server.url}/api/events/export?eventName=Approval&fromBlock=${head}`);
      const received = await new Promise<number>((resolve, reject) => {
        const req = http.get(url, { headers: { authorization: `Bearer ${aliceToken}` } }, (res) => {
          expect(res.statusCode).to.equal(200);
          res.once("data", (chunk: Buffer) => {
            res.pause(); // a client that stops reading...
            setTimeout(async () => {
              try {
                // ...while others are answered, fast.
                const started = Date.now();
                expect((await get("/api/events?limit=5")).status).to.equal(200);
                expect((await get(`/api/batch/${jobId}`)).status).to.equal(200);
                expect(Date.now() - started).to.be.below(2000);
                expect(reads, "the export waits for the client instead of reading ahead").to.be.below(pages);
                req.destroy(); // ...and then goes
                resolve(chunk.length);
              } catch (error) {
                reject(error);
              }
            }, 300);
          });
        });
        req.on("error", () => undefined);
      });
      expect(received).to.be.greaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const after = reads;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(reads, "no page is read once the client has gone").to.equal(after);
      expect(after).to.be.below(pages);
      // The server goes on: a whole export still works.
      const whole = await get(`/api/events/export?eventName=Approval&fromBlock=${head}`);
      expect(csvRows(whole.body as unknown as string, EVENTS_CSV_HEADER)).to.have.length(pages * EXPORT_PAGE_ROWS);
    } finally {
      exportsService.pages = pagesOf;
    }
  });
});
