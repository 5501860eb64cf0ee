import { readFileSync } from "node:fs";
import { expect } from "chai";
import type { Page } from "playwright-core";
import { exactTokenAmount, formatTokenAmount } from "@common/amounts";
import { addressOf, chainToken, connectWallet, isolateEachTest, navigate, openBrowser, type Session, signUp } from "./browser";
import { e2e } from "./hooks";
import type { RunningServer } from "../server/src/index";

/**
 * Issue 18 in the browser: the Holders screen lists the seeded holders with their balances as the
 * chain has them, sorts and searches, and exports a CSV; the Dashboard shows what alice's balance
 * earned from the multiplier.
 */

/** A balance as the table shows it: two decimals, rounded down, thousands grouped. */
function grouped(value: bigint): string {
  const [whole, fraction] = formatTokenAmount(value, 2).split(".");
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${fraction}`;
}

/** The table's rows, top to bottom: the address (from its copy button) and the Balance cell. */
async function rows(page: Page): Promise<{ address: string; balance: string }[]> {
  return page
    .getByRole("table", { name: "Holders" })
    .locator("tbody tr")
    .evaluateAll((trs) =>
      trs.map((tr) => ({
        address: tr.querySelector('button[aria-label^="Copy address "]')?.getAttribute("aria-label")?.replace("Copy address ", "") ?? "",
        balance: tr.querySelectorAll("td")[1]?.textContent?.trim() ?? "",
      })),
    );
}

/** The seed's Operations Safe, which holds 50,000 USDX for batch payments (the manifest names it). */
function operationsSafe(): string {
  const safe = (e2e().server as unknown as RunningServer).services.chain.manifest.safes?.[0];
  if (!safe) throw new Error("The seed did not name the Operations Safe in the manifest.");
  return safe.address;
}

describe("Holders (browser)", function () {
  this.timeout(90_000);
  let session: Session;
  isolateEachTest(() => session);

  async function openHolders(): Promise<Page> {
    session = await openBrowser("alice");
    const { page } = session;
    await signUp(page);
    await connectWallet(page);
    await navigate(page, "/holders");
    await page.getByRole("heading", { name: "Holders", exact: true }).waitFor();
    await page.getByRole("table", { name: "Holders" }).locator("tbody tr").first().waitFor();
    return page;
  }

  it("lists every seeded holder with the chain's balance, largest first, and the holder count", async () => {
    const page = await openHolders();
    const { token, provider } = await chainToken();
    const seeded = [...["admin", "alice", "bob", "carol", "dave", "erin"].map(addressOf), operationsSafe()];
    const balances = new Map(await Promise.all(seeded.map(async (a) => [a, await token.balanceOf(a)] as const)));
    provider.destroy();

    const shown = await rows(page);
    expect(shown.map((r) => r.address).sort()).to.deep.equal([...seeded].sort());
    for (const row of shown) expect(row.balance, row.address).to.equal(grouped(balances.get(row.address)!));
    const largestFirst = [...seeded].sort((a, b) => (balances.get(b)! > balances.get(a)! ? 1 : -1));
    expect(shown.map((r) => r.address)).to.deep.equal(largestFirst);
    await page.getByText("7 holders", { exact: false }).waitFor();
    await page.getByText("Showing 1–7 of 7").waitFor();
    expect(await page.getByRole("link", { name: "Holders", exact: true }).getAttribute("aria-current")).to.equal("page");
    expect(session.errors).to.deep.equal([]);
  });

  it("sorts by a header (again for the other order) and searches by address", async () => {
    const page = await openHolders();
    const table = page.getByRole("table", { name: "Holders" });
    const byAddress = () =>
      [...["admin", "alice", "bob", "carol", "dave", "erin"].map(addressOf), operationsSafe()].sort((a, b) =>
        a.toLowerCase().localeCompare(b.toLowerCase()),
      );

    await table.getByRole("button", { name: "Address", exact: true }).click();
    await page.waitForFunction(() => document.querySelector('th[aria-sort="ascending"]')?.textContent?.includes("Address"));
    expect((await rows(page)).map((r) => r.address)).to.deep.equal(byAddress());
    await table.getByRole("button", { name: "Address", exact: true }).click();
    await page.waitForFunction(() => document.querySelector('th[aria-sort="descending"]')?.textContent?.includes("Address"));
    expect((await rows(page)).map((r) => r.address)).to.deep.equal(byAddress().reverse());

    // alice's first hex digits, in capitals: the search ignores case.
    const alice = addressOf("alice");
    await page.getByRole("searchbox", { name: "Search holders by address" }).fill(alice.slice(0, 8).toUpperCase().replace("0X", "0x"));
    await page.getByText("1 of 7 holders match").waitFor();
    expect((await rows(page)).map((r) => r.address)).to.deep.equal([alice]);

    await page.getByRole("searchbox", { name: "Search holders by address" }).fill("alice");
    await page.getByText("An address search uses hex digits (0-9, a-f), with or without a leading 0x.").waitFor();
    expect(session.errors).to.deep.equal([]);
  });

  it("exports usdx_holders.csv: the header and one row per holder, with exact balances", async () => {
    const page = await openHolders();
    const { token, provider } = await chainToken();
    const alice = addressOf("alice");
    const aliceBalance = await token.balanceOf(alice);
    provider.destroy();

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).to.equal("usdx_holders.csv");
    const lines = readFileSync((await download.path())!, "utf8")
      .split("\r\n")
      .filter(Boolean);
    // Every cell in double quotes (none of these holds a quote or a comma).
    const cells = (line: string) => line.split(",").map((cell) => cell.replace(/^"|"$/g, ""));
    expect(cells(lines[0])).to.deep.equal([
      "Address",
      "Balance",
      "Shares",
      "Share of supply",
      "First activity block",
      "First activity time",
      "Last activity block",
      "Last activity time",
    ]);
    expect(lines).to.have.length(8);
    // The same order as the table: largest balance first.
    expect(lines.slice(1).map((l) => cells(l)[0])).to.deep.equal((await rows(page)).map((r) => r.address));
    expect(cells(lines.find((l) => cells(l)[0] === alice)!)[1]).to.equal(exactTokenAmount(aliceBalance));
    expect(session.errors).to.deep.equal([]);
  });

  it("the Dashboard's 'Rewards earned' shows what alice's balance earned from the seeded multiplier", async () => {
    session = await openBrowser("alice");
    const { page } = session;
    await signUp(page);
    await connectWallet(page);
    await page.getByRole("heading", { name: "Rewards earned" }).waitFor();
    // The seed: alice holds 9,802.25 shares (10,000 minted, 250 sent, 42.25 and 10 received at 1.0); then the
    // multiplier went to 1.0125 (9,924.778125: +122.528125) and 1.015 (9,949.28375: +24.505625), 147.03375 in all.
    await page.getByTestId("rewards-all-time").filter({ hasText: "+147.03 USDX" }).waitFor();
    expect(await page.getByTestId("rewards-30-days").textContent()).to.equal("+147.03 USDX");
    await page.getByText("Of your 9,949.28 USDX, 9,802.25 came from transfers.", { exact: false }).waitFor();
    expect(session.errors).to.deep.equal([]);
  });
});
