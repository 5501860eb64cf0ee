import { readFileSync } from "node:fs";
import { expect } from "chai";
import { Wallet } from "ethers";
import type { Download, Page } from "playwright-core";
import { exactTokenAmount } from "@common/amounts";
import type { EventPage, HistoryEntry, HistoryPage } from "@common/apiTypes";
import { addressOf, connectWallet, isolateEachTest, navigate, openBrowser, type Row, type Session, signUp, uploadRows } from "./browser";
import { e2e } from "./hooks";

/**
 * Issue 18's exports for the books, downloaded from their screens: alice's history (all, a block
 * range and a date range), Contract Events with the filter applied, and a batch job's recipients
 * (from the completed panel and from Payment History's detail).
 */

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/**
 * A downloaded file's data rows as cells, after checking its header. Every cell is in double quotes,
 * inner quotes doubled (lib/csv.ts, OWASP's rule), and every line ends in CRLF.
 */
function fileRows(path: string, header: string): string[][] {
  const lines = readFileSync(path, "utf8").split("\r\n");
  expect(lines.pop()).to.equal("");
  for (const line of lines) expect(line, line).to.match(/^"(?:[^"]|"")*"(?:,"(?:[^"]|"")*")*$/);
  const cells = lines.map((line) =>
    line
      .slice(1, -1)
      .split('","')
      .map((cell) => cell.replace(/""/g, '"')),
  );
  expect(cells[0]).to.deep.equal(header.split(","));
  return cells.slice(1);
}

async function download(page: Page, click: () => Promise<void>): Promise<Download> {
  const [file] = await Promise.all([page.waitForEvent("download"), click()]);
  return file;
}

/** GET a public read of the API, as JSON. */
async function read<T>(path: string): Promise<T> {
  return (await fetch(`${e2e().server.url}${path}`)).json() as Promise<T>;
}

describe("Exports for the books (browser)", function () {
  this.timeout(120_000);
  let session: Session;
  isolateEachTest(() => session);

  it("exports Your Transactions (all, a block range, a date range) and Contract Events with the filter applied", async () => {
    const alice = addressOf("alice");
    session = await openBrowser("alice");
    const { page, errors } = session;
    await signUp(page);
    await connectWallet(page);
    await navigate(page, "/transactions");
    await page.getByRole("heading", { name: "Transaction History", exact: true }).waitFor();
    await page.getByRole("tabpanel").locator("table:visible tbody tr").first().waitFor();

    // The seeded history, oldest first, as GET history answers it.
    const history: HistoryEntry[] = (await read<HistoryPage>(`/api/accounts/${alice}/history?limit=200`)).items.reverse();
    expect(history.length).to.be.greaterThan(2);
    const line = (e: HistoryEntry) =>
      [iso(e.timestamp), e.blockNumber, e.hash, e.logIndex, e.type, e.from, e.to, e.amount, exactTokenAmount(BigInt(e.amountMoved))].map(
        String,
      );
    const header = "Date,Block,Transaction Hash,Log Index,Type,From,To,Amount,Amount moved";
    const dialog = page.getByRole("dialog", { name: "Export transactions" });
    const exportWith = async (fill: () => Promise<void>) => {
      await page.getByRole("button", { name: "Export CSV" }).click();
      await fill();
      const file = await download(page, () => dialog.getByRole("button", { name: "Export CSV" }).click());
      await dialog.waitFor({ state: "hidden" });
      return file;
    };

    const all = await exportWith(async () => undefined);
    expect(all.suggestedFilename()).to.equal(`usdx_history_${alice}.csv`);
    expect(fileRows((await all.path())!, header)).to.deep.equal(history.map(line));

    // A block range that leaves out the first and last rows: its ends are included.
    const [from, to] = [history[1].blockNumber, history[history.length - 2].blockNumber];
    const byBlock = await exportWith(async () => {
      await dialog.getByRole("radio", { name: "A block range" }).click();
      // Inline checks first: the start after the end is said under the field, and nothing is asked of the server.
      await dialog.getByLabel("From Block").fill(String(to + 1));
      await dialog.getByLabel("To Block").fill(String(to));
      await dialog.getByRole("button", { name: "Export CSV" }).click();
      await dialog.getByText(`From Block (${to + 1}) must not be after To Block (${to}).`).waitFor();
      await dialog.getByLabel("From Block").fill(String(from));
    });
    expect(fileRows((await byBlock.path())!, header)).to.deep.equal(
      history.filter((e) => e.blockNumber >= from && e.blockNumber <= to).map(line),
    );

    // The day of the newest row (UTC), to that day: both ends included.
    const day = iso(history[history.length - 1].timestamp).slice(0, 10);
    const byDate = await exportWith(async () => {
      await dialog.getByRole("radio", { name: "A date range (UTC)" }).click();
      await dialog.getByLabel("From Date").fill(day);
      await dialog.getByLabel("To Date").fill(day);
    });
    expect(fileRows((await byDate.path())!, header)).to.deep.equal(history.filter((e) => iso(e.timestamp).startsWith(day)).map(line));

    // Contract Events: the Transfer filter over a block range, applied, is what the file holds.
    await page.getByRole("tab", { name: "Contract Events" }).click();
    const panel = page.getByRole("tabpanel");
    await panel.locator("table:visible tbody tr").first().waitFor();
    await panel.getByRole("combobox", { name: "Event Type" }).click();
    await page.getByRole("option", { name: "Transfer", exact: true }).click();
    await panel.getByLabel("From Block").fill(String(from));
    await panel.getByRole("button", { name: "Apply" }).click();
    await panel.getByText(/events? in blocks/).waitFor();
    const events = await download(page, () => panel.getByRole("button", { name: "Export CSV" }).click());
    expect(events.suggestedFilename()).to.equal("usdx_events.csv");
    const expected = (await read<EventPage>(`/api/events?eventName=Transfer&fromBlock=${from}&limit=100`)).events.reverse();
    const rows = fileRows((await events.path())!, "Date,Block,Transaction Hash,Log Index,Contract,Event,Arguments,Amount moved");
    expect(rows.map((r) => r.slice(1, 4))).to.deep.equal(
      expected.map((e) => [String(e.blockNumber), e.transactionHash, String(e.logIndex)]),
    );
    expect(rows.every((r) => r[4] === "USDX" && r[5] === "Transfer" && r[6].startsWith("from=0x"))).to.equal(true);
    expect(errors).to.deep.equal([]);
  });

  it("exports a batch job's recipients from the completed panel and from Payment History, a formula name made inert", async function () {
    this.timeout(180_000);
    session = await openBrowser("alice");
    const { page, errors } = session;
    const rows: Row[] = [
      { name: "=HYPERLINK(1)", address: Wallet.createRandom().address, amount: "1.25", valid: true },
      { name: "Plain Payee", address: Wallet.createRandom().address, amount: "2.5", valid: true },
    ];
    await uploadRows(page, rows);
    await page.getByRole("button", { name: "Pay 2 recipients" }).click();
    await page.getByText("Batch transfer completed").first().waitFor({ timeout: 120_000 });

    const header = "Name,Address,Amount,Status,Transaction Hash,Block";
    const check = (file: Download, path: string) => {
      const jobId = /^usdx_batch_([0-9a-f-]{36})\.csv$/.exec(file.suggestedFilename())?.[1];
      expect(jobId, file.suggestedFilename()).to.be.a("string");
      const lines = fileRows(path, header);
      expect(lines.map((l) => l.slice(0, 4))).to.deep.equal([
        ["'=HYPERLINK(1)", rows[0].address, "1.25", "Paid"],
        ["Plain Payee", rows[1].address, "2.5", "Paid"],
      ]);
      for (const l of lines) {
        expect(l[4]).to.match(/^0x[0-9a-f]{64}$/);
        expect(Number(l[5])).to.be.greaterThan(0);
      }
      return jobId;
    };
    const fromPanel = await download(page, () => page.getByRole("button", { name: "Export CSV" }).click());
    const jobId = check(fromPanel, (await fromPanel.path())!);

    await page.getByRole("tab", { name: "Payment History" }).click();
    await page.getByRole("table", { name: "Batch payments" }).getByRole("row").filter({ hasText: "2/2" }).first().click();
    const detail = page.getByRole("dialog");
    await detail.getByRole("table", { name: "Transactions" }).waitFor();
    const fromDetail = await download(page, () => detail.getByRole("button", { name: "Export CSV" }).click());
    expect(check(fromDetail, (await fromDetail.path())!)).to.equal(jobId);
    expect(errors).to.deep.equal([]);
  });
});
