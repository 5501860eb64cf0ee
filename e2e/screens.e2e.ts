import { readFileSync } from "node:fs";
import { expect } from "chai";
import { parseUnits, Wallet } from "ethers";
import {
  addressOf,
  chainToken,
  connectWallet,
  expectToast,
  expectToastWith,
  isolateEachTest,
  navigate,
  openBrowser,
  type Session,
  signUp,
} from "./browser";
import { e2e } from "./hooks";

describe("Screens (browser)", () => {
  let session: Session | null;
  isolateEachTest(() => session);
  beforeEach(() => {
    session = null;
  });

  async function openSignedIn(account: string, route: string): Promise<Session> {
    session = await openBrowser(account);
    await signUp(session.page);
    await connectWallet(session.page);
    await navigate(session.page, route);
    return session;
  }

  it("Contacts: adds, searches, deletes, exports usdx_contacts.csv and imports a CSV file", async function () {
    this.timeout(90_000);
    const { page, errors } = await openSignedIn("alice", "/contacts");
    await page.getByRole("heading", { name: "Contacts", exact: true }).waitFor();
    const search = page.getByRole("searchbox", { name: "Search contacts" });
    const rows = page.getByRole("table").getByRole("row");

    // Add two.
    const treasury = { name: "Treasury Desk", address: Wallet.createRandom().address, notes: "monthly payroll" };
    const vendor = { name: "Vendor Ltd", address: Wallet.createRandom().address, notes: "" };
    for (const c of [treasury, vendor]) {
      await page.getByRole("button", { name: "Add Contact", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Add Contact" });
      await dialog.getByLabel("Name").fill(c.name);
      await dialog.getByLabel("Address").fill(c.address);
      if (c.notes) await dialog.getByLabel(/Notes/).fill(c.notes);
      await dialog.getByRole("button", { name: "Add Contact" }).click();
      await expectToastWith(page, "Contact added", c.name);
      await dialog.waitFor({ state: "detached" });
      await rows.filter({ hasText: c.name }).waitFor();
    }

    // Search: by notes (case-insensitive), then something nobody has.
    await search.fill("PAYROLL");
    await rows.filter({ hasText: vendor.name }).waitFor({ state: "detached" });
    await rows.filter({ hasText: treasury.name }).waitFor();
    await search.fill("zz-nobody-zz");
    await page.getByText("No contacts found").waitFor();
    await page.getByText("Try changing your search query").waitFor();
    await search.fill("");
    await rows.filter({ hasText: vendor.name }).waitFor();

    // Delete the vendor.
    await page.getByRole("button", { name: `Delete ${vendor.name}` }).click();
    const confirm = page.getByRole("dialog", { name: "Delete contact?" });
    await confirm.getByRole("button", { name: "Delete", exact: true }).click();
    await expectToastWith(page, "Contact deleted", vendor.name);
    await rows.filter({ hasText: vendor.name }).waitFor({ state: "detached" });

    // Export: the file holds the remaining contact.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export" }).click()]);
    expect(download.suggestedFilename()).to.equal("usdx_contacts.csv");
    const exported = readFileSync((await download.path())!, "utf8");
    expect(exported.split(/\r?\n/)[0]).to.equal('"Name","Address","Notes"');
    expect(exported).to.contain(treasury.name);
    expect(exported.toLowerCase()).to.contain(treasury.address.toLowerCase());
    expect(exported).not.to.contain(vendor.name);

    // Import: two new contacts and one line with a bad address.
    const imported = [
      { name: "Imported One", address: Wallet.createRandom().address },
      { name: "Imported Two", address: Wallet.createRandom().address },
    ];
    const csv = ["Name,Address,Notes", ...imported.map((c) => `${c.name},${c.address},from a file`), "Broken,0x1234,bad"].join("\n") + "\n";
    await page.getByTestId("contacts-import-file").setInputFiles({ name: "import.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    const result = page.getByRole("dialog", { name: "Import results" });
    await result.waitFor();
    await result.getByText("1 line skipped").waitFor();
    expect(await result.textContent()).to.contain("import.csv");
    await result.getByRole("button", { name: "Done" }).click();
    await result.waitFor({ state: "detached" });
    for (const c of imported) await rows.filter({ hasText: c.name }).waitFor();
    expect(await rows.filter({ hasText: "Broken" }).count()).to.equal(0);
    expect(errors).to.deep.equal([]);
  });

  it("Settings: saves the stack's own RPC URL ('RPC URL Updated') and downloads usdxAbi.json", async function () {
    this.timeout(60_000);
    const { page, errors } = await openSignedIn("alice", "/settings");
    await page.getByRole("heading", { name: "Settings", exact: true }).waitFor();
    const rpcUrl = e2e().stack.rpcUrl;
    await page.getByLabel(/Custom RPC URL/).fill(rpcUrl);
    await page.getByRole("button", { name: "Save RPC Settings" }).click();
    expect(await expectToast(page, "RPC URL Updated")).to.contain("Please reconnect your wallet");
    await page.getByText(`${rpcUrl} (custom)`).waitFor();
    // The wallet is reconnected a second later.
    await page
      .getByRole("banner")
      .getByRole("button", { name: /^Wallet 0x/ })
      .waitFor();

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download ABI" }).click()]);
    expect(download.suggestedFilename()).to.equal("usdxAbi.json");
    const abi = JSON.parse(readFileSync((await download.path())!, "utf8")) as { type: string; name?: string }[];
    expect(abi.some((item) => item.type === "function" && item.name === "balanceOf")).to.equal(true);
    await expectToast(page, "ABI Downloaded");
    expect(errors).to.deep.equal([]);
  });

  it("Transaction History: alice's 'Your Transactions' lists the seeded transfers; Contract Events filtered to Transfer shows Transfer rows", async function () {
    this.timeout(60_000);
    const { page, errors } = await openSignedIn("alice", "/transactions");
    await page.getByRole("heading", { name: "Transaction History", exact: true }).waitFor();
    // 1280 px is the extra-large breakpoint: the table shows, the list is hidden.
    const history = page.locator("table:visible").first();
    await history.getByRole("row").nth(1).waitFor();
    const text = (await history.textContent()) ?? "";
    // The seed: a mint of 10,000 to alice, 250 to bob, 42.25 from carol and 10 from dave.
    const body = history.locator("tbody tr");
    expect(await body.count()).to.be.at.least(4);
    expect(text).to.contain("Mint");
    expect(text).to.contain("Transfer");
    for (const amount of ["250", "42.25", "10"]) expect(text).to.contain(amount);

    await page.getByRole("tab", { name: "Contract Events" }).click();
    await page
      .getByRole("heading", { name: "Contract Events" })
      .or(page.getByText("Contract Events", { exact: true }).last())
      .first()
      .waitFor();
    await page.getByLabel("Event Type").click();
    await page.getByRole("option", { name: "Transfer", exact: true }).click();
    await page.getByRole("button", { name: "Apply" }).click();
    const events = page.getByRole("tabpanel").locator("table:visible tbody tr");
    await events.first().waitFor();
    // Wait for the filtered result: every row a Transfer.
    const deadline = Date.now() + 15_000;
    let names: string[] = [];
    while (Date.now() < deadline) {
      names = await events.evaluateAll((trs) => trs.map((tr) => tr.querySelector("td")?.textContent ?? ""));
      if (names.length > 0 && names.every((n) => n.includes("Transfer"))) break;
      await page.waitForTimeout(250);
    }
    expect(names.length).to.be.greaterThan(0);
    for (const n of names) expect(n).to.contain("Transfer");
    expect(errors).to.deep.equal([]);
  });

  it("Mock bank: erin adds an account, it verifies ('Account Verified'), deposits 25 ('Deposit Successful!'); erin's balance rises by 25", async function () {
    this.timeout(90_000);
    const { token, provider } = await chainToken();
    const erin = addressOf("erin");
    const before = await token.balanceOf(erin);
    const { page, errors } = await openSignedIn("erin", "/accounts");
    await page.getByRole("heading", { name: "Bank Accounts & Deposits" }).waitFor();

    await page.getByRole("button", { name: "Add Account" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add Bank Account" });
    await dialog.getByLabel("Account Name").fill("Erin Checking");
    await dialog.getByLabel("Account Type").click();
    await page.getByRole("option", { name: "Checking" }).click();
    await dialog.getByLabel("Account Number").fill("123456789");
    await dialog.getByLabel("Routing Number").fill("021000021");
    await dialog.getByRole("button", { name: "Add Account" }).click();
    await expectToast(page, "Account Added");
    const added = Date.now();
    await expectToast(page, "Account Verified");
    expect(Date.now() - added).to.be.at.least(2_000);

    await page.getByRole("tab", { name: "Deposit USD" }).click();
    // Erin's connected wallet is not listed yet: one click adds it.
    const offer = page.getByRole("button", { name: "Add connected wallet" });
    await offer.click();
    await offer.waitFor({ state: "detached" });
    await page.getByLabel("To wallet").waitFor();
    await page.getByLabel("From bank account").click();
    await page.getByRole("option", { name: /Erin Checking/ }).click();
    await page.getByLabel("Amount (USD)").fill("25");
    await page.getByRole("button", { name: "Deposit USD" }).click();
    await expectToast(page, "Deposit Requested");
    await page.getByRole("dialog", { name: "Deposit Successful!" }).waitFor({ timeout: 30_000 });

    const after = await token.balanceOf(erin);
    const rise = after - before;
    const expected = parseUnits("25", 18);
    provider.destroy();
    expect(rise <= expected && expected - rise <= 2n, `erin's balance rose by ${rise}, expected ${expected}`).to.equal(true);
    expect(errors).to.deep.equal([]);
  });
});
