/**
 * The faucet's per-address daily cap (issue 29): a new SIWE wallet is a new user with a proved
 * address, so throwaway wallets from one client address must share one cap (MOCK_BANK_IP_DAILY_USD),
 * and each refusal names the cap it hit: per user, per IP address or for all users.
 */
import { expect } from "chai";
import { deposits } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { call, revert, snapshot, startTestServer, walletUser } from "./helpers";
import { FAUCET, TOMORROW, mintsTo, sleep, verifiedAccount } from "./bankFaucetHelpers";

describe("Mock bank as a test faucet: the per-IP daily cap (MOCK_BANK_IP_DAILY_USD)", function () {
  this.timeout(60_000);
  let server: RunningServer;
  let chainSnapshot: string;
  // 100 USDX a day per user, 25 per address, 1,000 in all; the deposits wait, so nothing fails meanwhile.
  const CAPS = { ...FAUCET, MOCK_BANK_USER_DAILY_USD: "100", MOCK_BANK_IP_DAILY_USD: "25", MOCK_BANK_TOTAL_DAILY_USD: "1000" };
  const ATTACKER = "203.0.113.66";

  before(async () => {
    chainSnapshot = await snapshot();
    server = await startTestServer({ ...CAPS, BANK_COMPLETE_MS: "3600000" });
  });
  after(async () => {
    await server?.close();
    await revert(chainSnapshot);
  });

  /** A fresh SIWE wallet (a new user) with a verified bank account, depositing to its sign-in wallet from `ip`. */
  async function freshWallet(ip: string) {
    const user = await walletUser(server);
    const account = await verifiedAccount(server, user);
    const deposit = (amount: string) =>
      call(server, "POST", "/api/bank/deposits", {
        token: user.idToken,
        headers: { "x-forwarded-for": ip },
        body: { bankAccountId: account, amount },
      });
    return { user, deposit };
  }

  it("fresh SIWE wallets from one address share the cap: refused past it with the sentence naming the per-IP cap, while another address deposits", async () => {
    const wallets = [await freshWallet(ATTACKER), await freshWallet(ATTACKER), await freshWallet(ATTACKER)];
    expect((await wallets[0].deposit("10")).status).to.equal(201);
    expect((await wallets[1].deposit("10")).status).to.equal(201);
    // Each wallet is far below its own 100 USDX: only the address's 25 stops the third.
    const over = await wallets[2].deposit("10");
    expect(over.status).to.equal(429);
    expect(over.body).to.deep.equal({
      success: false,
      error:
        "Daily mock deposit limit for this IP address: 25.00 USDX a day per IP address, all its users together (UTC day), and only 5.00 USDX of it is left today. Deposit at most 5.00 USD, or try again tomorrow (the day turns at 00:00 UTC).",
    });
    expect((await wallets[2].deposit("5")).status).to.equal(201);
    const fourth = await freshWallet(ATTACKER);
    const none = await fourth.deposit("1");
    expect(none.status).to.equal(429);
    expect(none.body.error).to.equal(
      `Daily mock deposit limit for this IP address reached: 25.00 USDX a day per IP address, all its users together (UTC day). ${TOMORROW}`,
    );
    // Nothing was stored for the refusals, and the faucet minted nothing to the fourth wallet.
    const rows = await server.services.db.db.select().from(deposits);
    // In amount order: rows come back in no set order (a processed deposit's update moves its row).
    const amounts = rows.filter((r) => r.clientIp === ATTACKER).map((r) => BigInt(r.amount));
    expect(amounts.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).to.deep.equal([5n, 10n, 10n].map((n) => n * 10n ** 18n));
    await sleep(300);
    expect(await mintsTo(fourth.user.wallet.address)).to.deep.equal([]);

    // Someone at another address is not held by the attacker's cap.
    const elsewhere = await freshWallet("198.51.100.7");
    expect((await elsewhere.deposit("20")).status).to.equal(201);
  });
});
