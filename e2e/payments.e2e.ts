import { expect } from "chai";
import { JsonRpcProvider, parseUnits, Wallet } from "ethers";
import { USDX__factory } from "../typechain-types/factories/contracts/USDX__factory";
import { connectWallet, isolateEachTest, navigate, openBrowser, type Session, signUp } from "./browser";
import { e2e } from "./hooks";

/** The token proxy the stack deployed, as the server announces it. */
async function usdx() {
  const config = (await fetch(`${e2e().server.url}/api/config`).then((r) => r.json())) as { contracts: { proxy: string } };
  const provider = new JsonRpcProvider(e2e().stack.rpcUrl);
  return { token: USDX__factory.connect(config.contracts.proxy, provider), provider };
}

interface Row {
  name: string;
  address: string;
  amount: string;
  valid: boolean;
}

/** 25 rows, every amount different; rows 3 and 7 have bad addresses, row 11 a bad amount. */
function batchRows(): Row[] {
  const rows: Row[] = [];
  for (let i = 0; i < 25; i++) {
    rows.push({ name: `Payee ${String(i + 1).padStart(2, "0")}`, address: Wallet.createRandom().address, amount: `${i + 1}.${String((i * 7 + 3) % 100).padStart(2, "0")}`, valid: true });
  }
  rows[2] = { ...rows[2], address: "0x12345", valid: false };
  rows[6] = { ...rows[6], address: "not-an-address", valid: false };
  rows[10] = { ...rows[10], amount: "12.x5", valid: false };
  return rows;
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
    const { token, provider } = await usdx();
    const rows = batchRows();
    const valid = rows.filter((r) => r.valid);
    expect(valid).to.have.length(22);
    for (const r of valid) expect(await token.balanceOf(r.address)).to.equal(0n);

    await signUp(page);
    await connectWallet(page);
    await navigate(page, "/payments");
    await page.getByRole("heading", { name: "Payments", exact: true }).waitFor();

    const csv = ["Name,Address,Amount", ...rows.map((r) => `${r.name},${r.address},${r.amount}`)].join("\n") + "\n";
    await page.locator('input[type="file"]').setInputFiles({ name: "batch.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });

    const table = page.getByRole("table", { name: "Recipients" });
    await table.waitFor();
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

    for (const r of valid) {
      const expected = parseUnits(r.amount, 18);
      const balance = await token.balanceOf(r.address);
      expect(balance <= expected, `${r.name} got ${balance}, more than ${expected}`).to.equal(true);
      expect(expected - balance <= 2n, `${r.name} got ${balance}, expected ${expected} (2 wei less at most)`).to.equal(true);
    }
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
});
