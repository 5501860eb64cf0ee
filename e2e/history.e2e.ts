import { expect } from "chai";
import type { Page } from "playwright-core";
import type { EventPage } from "@common/apiTypes";
import { parseTokenAmount } from "@common/amounts";
import { EVENTS_DEFAULT_LIMIT } from "@common/events";
import {
  addressOf,
  chainToken,
  connectWallet,
  expectToast,
  isolateEachTest,
  navigate,
  openBrowser,
  type Session,
  signUp,
  switchAccount,
} from "./browser";
import { e2e } from "./hooks";

/** The visible table's body rows (1280 px: the table shows, the phone list is hidden). */
const tableRows = (page: Page) => page.getByRole("tabpanel").locator("table:visible tbody tr");

/** The transaction hashes the rows link to, top to bottom. */
async function linkedHashes(page: Page): Promise<string[]> {
  return tableRows(page).evaluateAll((trs) =>
    trs.map(
      (tr) =>
        tr.querySelector('a[aria-label^="Transaction 0x"]')?.getAttribute("aria-label")?.replace("Transaction ", "").toLowerCase() ?? "",
    ),
  );
}

describe("Transaction History (browser)", function () {
  this.timeout(90_000);
  let session: Session;
  isolateEachTest(() => session);

  it("lists alice's transfer under Your Transactions, and bob's once the wallet switches to bob", async () => {
    const { token, provider } = await chainToken();
    const alice = addressOf("alice");
    const bob = addressOf("bob");
    session = await openBrowser("alice");
    const { page, errors } = session;
    await signUp(page);
    await connectWallet(page);

    // A transfer of an amount nothing else in the seed uses.
    await page.getByRole("button", { name: "Transfer", exact: true }).first().click();
    const dialog = page.getByRole("dialog", { name: "Transfer USDX" });
    await dialog.getByText(/^Available: [\d,]+\.\d\d USDX$/).waitFor();
    await dialog.getByLabel("Recipient Address").fill(bob);
    await dialog.getByLabel("Amount (USDX)").fill("31.07");
    await dialog.getByRole("button", { name: "Transfer", exact: true }).click();
    await expectToast(page, "Transfer successful");
    await page.getByRole("dialog", { name: "Transaction confirmed" }).getByRole("button", { name: "Close" }).first().click();

    // The chain's record of it: the one Transfer alice -> bob of 31.07.
    const logs = await token.queryFilter(token.filters.Transfer(alice, bob));
    const sent = logs.filter((log) => log.args.value === parseTokenAmount("31.07"));
    expect(sent).to.have.length(1);
    const hash = sent[0].transactionHash.toLowerCase();
    provider.destroy();

    // Alice's history: the newest row is that transfer, sent (a minus sign) to bob.
    await navigate(page, "/transactions");
    await page.getByRole("heading", { name: "Transaction History", exact: true }).waitFor();
    const newest = tableRows(page).first();
    await newest
      .locator(`a[aria-label="Transaction ${sent[0].transactionHash}"], a[aria-label="Transaction ${hash}"]`)
      .waitFor({ timeout: 20_000 });
    const sentText = (await newest.textContent()) ?? "";
    expect(sentText).to.contain("Transfer");
    expect(sentText).to.match(/-\s*31\.07/);

    // The wallet switches to bob (as a person would in their wallet): the page follows, and bob's
    // history shows the same transaction, received.
    await switchAccount(page, "bob");
    const received = tableRows(page).filter({
      has: page.locator(`a[aria-label="Transaction ${sent[0].transactionHash}"], a[aria-label="Transaction ${hash}"]`),
    });
    await received.first().waitFor({ timeout: 20_000 });
    const receivedText = (await received.first().textContent()) ?? "";
    expect(receivedText).to.match(/\+\s*31\.07/);
    expect(await linkedHashes(page)).to.include(hash);
    expect(errors).to.deep.equal([]);
  });

  it("Contract Events: 'Load Previous Events' appends the next older page, exactly as the index holds it", async () => {
    session = await openBrowser("alice");
    const { page, errors } = session;
    await signUp(page);
    await navigate(page, "/transactions");
    await page.getByRole("tab", { name: "Contract Events" }).click();

    // What the server's index holds, newest first: the first two pages the screen should show.
    const api = (await fetch(`${e2e().server.url}/api/events?limit=${EVENTS_DEFAULT_LIMIT * 2}`).then((r) => r.json())) as EventPage;
    expect(api.events.length, "the seed leaves more than one page of events").to.equal(EVENTS_DEFAULT_LIMIT * 2);
    const expected = api.events.map((e) => e.transactionHash.toLowerCase());

    const rows = tableRows(page);
    await rows.nth(EVENTS_DEFAULT_LIMIT - 1).waitFor();
    expect(await rows.count()).to.equal(EVENTS_DEFAULT_LIMIT);
    expect(await linkedHashes(page)).to.deep.equal(expected.slice(0, EVENTS_DEFAULT_LIMIT));
    await page.getByText(`${EVENTS_DEFAULT_LIMIT} events in blocks`).waitFor();

    await page.getByRole("button", { name: "Load Previous Events" }).click();
    await rows.nth(EVENTS_DEFAULT_LIMIT * 2 - 1).waitFor();
    expect(await rows.count()).to.equal(EVENTS_DEFAULT_LIMIT * 2);
    expect(await linkedHashes(page)).to.deep.equal(expected);
    // Block numbers never rise going down the table: the appended rows are older.
    const blocks = await rows.evaluateAll((trs) =>
      trs.map((tr) => Number((tr.querySelectorAll("td")[3]?.textContent ?? "").replace(/,/g, ""))),
    );
    for (let i = 1; i < blocks.length; i++) expect(blocks[i]).to.be.at.most(blocks[i - 1]);
    await page.getByText(`${EVENTS_DEFAULT_LIMIT * 2} events in blocks ${Math.min(...blocks).toLocaleString("en-US")} to`).waitFor();
    expect(errors).to.deep.equal([]);
  });

  it("Contract Events: a Transfer filter over a block range shows exactly the index's Transfers in those blocks", async () => {
    session = await openBrowser("alice");
    const { page, errors } = session;
    await signUp(page);
    await navigate(page, "/transactions");
    await page.getByRole("tab", { name: "Contract Events" }).click();

    // A range in the middle of the seed's blocks, so events lie on both sides of it.
    const all = (await fetch(`${e2e().server.url}/api/events?eventName=Transfer&limit=100`).then((r) => r.json())) as EventPage;
    const blocks = [...new Set(all.events.map((e) => e.blockNumber))].sort((a, b) => a - b);
    expect(blocks.length, "the seed's Transfers span several blocks").to.be.at.least(4);
    const from = blocks[1];
    const to = blocks[blocks.length - 2];
    const inside = all.events.filter((e) => e.blockNumber >= from && e.blockNumber <= to);
    expect(inside.length).to.be.lessThan(all.events.length);

    await page.getByLabel("Event Type").click();
    await page.getByRole("option", { name: "Transfer", exact: true }).click();
    await page.getByLabel("From Block").fill(String(from));
    await page.getByLabel("To Block").fill(String(to));
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText(new RegExp(`in blocks ${from.toLocaleString("en-US")} to ${to.toLocaleString("en-US")}`)).waitFor();

    const rows = tableRows(page);
    // Every page of the filtered result, loaded.
    while ((await page.getByRole("button", { name: "Load Previous Events" }).count()) > 0) {
      const before = await rows.count();
      await page.getByRole("button", { name: "Load Previous Events" }).click();
      await rows.nth(before).waitFor();
    }
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => ({
        name: tr.querySelector("td")?.textContent ?? "",
        block: Number((tr.querySelectorAll("td")[3]?.textContent ?? "").replace(/,/g, "")),
      })),
    );
    expect(shown.length).to.equal(inside.length);
    for (const row of shown) {
      expect(row.name).to.contain("Transfer");
      expect(row.block).to.be.within(from, to);
    }
    expect(await linkedHashes(page)).to.deep.equal(inside.map((e) => e.transactionHash.toLowerCase()));
    expect(errors).to.deep.equal([]);
  });
});
