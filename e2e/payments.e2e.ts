import { expect } from "chai";
import { parseUnits, Wallet } from "ethers";
import type { Page } from "playwright-core";
import { rpc } from "../server/test/stack";
import { chainToken, isolateEachTest, openBrowser, type Row, saveScreen, type Session, uploadRows } from "./browser";
import { e2e } from "./hooks";

/** 25 rows, every amount different; rows 3 and 7 have bad addresses, row 11 a bad amount. */
function batchRows(): Row[] {
  const rows: Row[] = [];
  for (let i = 0; i < 25; i++) {
    rows.push({
      name: `Payee ${String(i + 1).padStart(2, "0")}`,
      address: Wallet.createRandom().address,
      amount: `${i + 1}.${String((i * 7 + 3) % 100).padStart(2, "0")}`,
      valid: true,
    });
  }
  rows[2] = { ...rows[2], address: "0x12345", valid: false };
  rows[6] = { ...rows[6], address: "not-an-address", valid: false };
  rows[10] = { ...rows[10], amount: "12.x5", valid: false };
  return rows;
}

/** `balance` is `expected` less at most 2 wei (shares times the multiplier round down). */
function expectPaid(name: string, balance: bigint, expected: bigint): void {
  expect(balance <= expected && expected - balance <= 2n, `${name} got ${balance}, expected ${expected} (2 wei less at most)`).to.equal(
    true,
  );
}

/** The progress bar's words ('Chunk 1 of 2 · 0 of 570 recipients paid'), or null when none shows. */
async function progressText(page: Page): Promise<string | null> {
  const bar = page.getByRole("progressbar", { name: "Recipients paid" });
  return (await bar.count()) > 0 ? await bar.getAttribute("aria-valuetext") : null;
}

async function waitForProgress(page: Page, text: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  let last: string | null = null;
  while (Date.now() < deadline) {
    last = await progressText(page);
    if (last === text) return;
    await page.waitForTimeout(100);
  }
  expect(last, "the progress shown").to.equal(text);
}

describe("Payments (browser)", () => {
  let session: Session;
  isolateEachTest(() => session);
  beforeEach(async () => {
    session = await openBrowser("alice");
  });

  it("pays 22 of 25 CSV rows (each its own amount), marks the 3 invalid cells, and lists the job in Payment History", async function () {
    this.timeout(180_000);
    const { page, errors } = session;
    const { token, provider } = await chainToken();
    const rows = batchRows();
    const valid = rows.filter((r) => r.valid);
    expect(valid).to.have.length(22);
    for (const r of valid) expect(await token.balanceOf(r.address)).to.equal(0n);

    await uploadRows(page, rows);

    const table = page.getByRole("table", { name: "Recipients" });
    const rowOf = (text: string) => table.getByRole("row").filter({ hasText: text });
    // The invalid rows: the reason under the address cell or the amount cell.
    for (const bad of [rows[2], rows[6]]) {
      const row = rowOf(bad.name);
      await row.waitFor();
      const cells = row.getByRole("cell");
      expect(await cells.nth(0).textContent()).to.contain("Error");
      expect(await cells.nth(2).textContent()).to.contain("Invalid Ethereum address");
      expect(await cells.nth(3).textContent()).not.to.contain("Invalid amount");
    }
    const badAmount = rowOf(rows[10].name);
    await badAmount.waitFor();
    expect(await badAmount.getByRole("cell").nth(0).textContent()).to.contain("Error");
    expect(await badAmount.getByRole("cell").nth(3).textContent()).to.contain("Invalid amount");
    expect(await badAmount.getByRole("cell").nth(2).textContent()).not.to.contain("Invalid Ethereum address");
    // A valid row has no reason under it.
    const good = rowOf(rows[0].name);
    expect(await good.getByRole("cell").nth(0).textContent()).to.contain("Valid");
    expect(await good.textContent()).not.to.match(/Invalid/);

    await page.getByRole("button", { name: "Pay 22 recipients" }).click();
    await page.getByText("Batch transfer completed").first().waitFor({ timeout: 120_000 });

    for (const r of valid) expectPaid(r.name, await token.balanceOf(r.address), parseUnits(r.amount, 18));
    for (const r of rows.filter((x) => !x.valid && x.address.startsWith("0x") && x.address.length === 42)) {
      expect(await token.balanceOf(r.address)).to.equal(0n);
    }
    provider.destroy();

    await page.getByRole("tab", { name: "Payment History" }).click();
    const jobs = page.getByRole("table", { name: "Batch payments" });
    await jobs.waitFor();
    const total = valid.reduce((sum, r) => sum + parseUnits(r.amount, 18), 0n);
    const job = jobs.getByRole("row").filter({ hasText: "22/22" });
    await job.waitFor();
    const totalText = (await job.getByRole("cell").nth(1).textContent()) ?? "";
    expect(parseUnits(totalText.replace(/,/g, ""), 18)).to.equal(total);
    expect(errors).to.deep.equal([]);
  });

  it("pays a batch larger than one chunk in two transactions, showing each chunk's progress, and every recipient gets its amount", async function () {
    this.timeout(240_000);
    const { page, errors } = session;
    const { token, provider } = await chainToken();
    const config = (await fetch(`${e2e().server.url}/api/config`).then((r) => r.json())) as { batch: { chunkSize: number } };
    // One recipient more than a chunk holds (the real chunk size, what fits under the gas cap):
    // the last chunk pays one. Amounts 0.01, 0.02, ...: all different, and within alice's balance.
    const size = config.batch.chunkSize + 1;
    const rows: Row[] = Array.from({ length: size }, (_, i) => ({
      name: `Payee ${i + 1}`,
      address: Wallet.createRandom().address,
      amount: ((i + 1) / 100).toFixed(2),
      valid: true,
    }));
    await uploadRows(page, rows);
    // The summary plans two transactions before anything is paid.
    await page.getByText(`${config.batch.chunkSize} recipients each, one signature for all`).waitFor();

    // Blocks are mined by hand from here, so the screen can be seen between the chunks.
    await rpc(e2e().stack.rpcUrl, "evm_setAutomine", [false]);
    try {
      await page.getByRole("button", { name: `Pay ${size} recipients` }).click();
      await waitForProgress(page, `Chunk 1 of 2 · 0 of ${size} recipients paid`);
      await page.getByText("Transaction 1 of 2 sent; waiting for it to be mined.").waitFor({ timeout: 30_000 });
      const chunks = page.getByRole("list", { name: "Transactions" }).getByRole("listitem");
      expect(await chunks.count()).to.equal(2);
      expect(await chunks.nth(0).textContent()).to.contain(`${config.batch.chunkSize} recipients`);
      expect(await chunks.nth(1).textContent()).to.contain("1 recipient");

      // Chunk 1 mined: the server finds it paid, and the second transaction is sent.
      await rpc(e2e().stack.rpcUrl, "evm_mine");
      await page.getByText("Transaction 2 of 2 sent; waiting for it to be mined.").waitFor({ timeout: 30_000 });
      await waitForProgress(page, `Chunk 2 of 2 · ${config.batch.chunkSize} of ${size} recipients paid`);
      const bar = page.getByRole("progressbar", { name: "Recipients paid" });
      expect(await bar.getAttribute("aria-valuenow")).to.equal(String(config.batch.chunkSize));
      expect(await chunks.nth(0).textContent()).to.contain("Paid");
      await saveScreen(page, "payments-progress-1280");

      await rpc(e2e().stack.rpcUrl, "evm_mine");
      await page.getByText("Batch transfer completed").first().waitFor({ timeout: 60_000 });
    } finally {
      await rpc(e2e().stack.rpcUrl, "evm_setAutomine", [true]);
    }
    const done = page.getByRole("list", { name: "Transactions" }).getByRole("listitem");
    expect(await done.count()).to.equal(2);
    for (let i = 0; i < 2; i++) expect(await done.nth(i).textContent()).to.contain("Paid");

    const balances = await Promise.all(rows.map((r) => token.balanceOf(r.address)));
    rows.forEach((r, i) => expectPaid(r.name, balances[i], parseUnits(r.amount, 18)));
    provider.destroy();
    expect(errors).to.deep.equal([]);
  });
});
