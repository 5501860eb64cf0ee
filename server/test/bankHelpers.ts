/**
 * What the mock bank's test files (bank.*.test.ts) share: its timings, the token it mints, and calls
 * to its routes as a user on a server.
 */
import { expect } from "chai";
import { Wallet, ZeroAddress, parseUnits } from "ethers";
import { USDX__factory } from "@bindings";
import type { USDX } from "@bindings";
import { readManifest } from "@common/manifestFile";
import type { RunningServer } from "../src/index";
import { call, provider, stack, until } from "./helpers";
import type { BankAccount, BankWallet } from "@common/apiTypes";

// Short timings for most tests; one test runs the spec's defaults (5 s, 3 s, 8 s).
export const FAST = { BANK_VERIFY_MS: "300", BANK_PROCESSING_MS: "300", BANK_COMPLETE_MS: "800" };

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const usdx = (): USDX =>
  USDX__factory.connect(readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir }).proxy, provider());
export const address = () => Wallet.createRandom().address;
export const units = (usd: string) => parseUnits(usd, 18);

/**
 * USDX rebases: a mint of `amount` adds amount*1e18/multiplier shares, rounded down. The amounts
 * below are multiples of 2.03 USD, which the seeded multiplier (1.015) converts exactly, so the
 * balance rises by exactly the amount; this guard fails the test if that premise stops holding.
 */
export async function expectExact(amount: bigint) {
  const token = usdx();
  expect(await token.convertToTokens(await token.convertToShares(amount))).to.equal(amount);
}

export async function mintsTo(to: string): Promise<bigint[]> {
  const token = usdx();
  const logs = await token.queryFilter(token.filters.Transfer(ZeroAddress, to));
  return logs.map((l) => l.args.value);
}

/**
 * The bank's routes on the server `server()` returns (read at each call: a file's `before` starts
 * it), as a user, and the steps most tests begin with.
 */
export function bankCalls(server: () => RunningServer) {
  const db = () => server().services.db.db;
  const as = (user: { idToken: string }) => ({
    get: (p: string) => call(server(), "GET", `/api/bank${p}`, { token: user.idToken }),
    post: (p: string, body: unknown = {}) => call(server(), "POST", `/api/bank${p}`, { token: user.idToken, body }),
    del: (p: string) => call(server(), "DELETE", `/api/bank${p}`, { token: user.idToken }),
  });

  async function addAccount(user: { idToken: string }, name = "Everyday"): Promise<BankAccount> {
    const answer = await as(user).post("/accounts", { name, type: "checking", accountNumber: "000123456789", routingNumber: "021000021" });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    return answer.body.account;
  }

  async function verifiedAccount(user: { idToken: string }, name?: string): Promise<BankAccount> {
    const account = await addAccount(user, name);
    await until(
      "account verified",
      async () => (await as(user).get("/accounts")).body.accounts.find((a: BankAccount) => a.id === account.id),
      (a) => a.status === "verified",
    );
    return account;
  }

  async function addWallet(user: { idToken: string }, name: string, addr: string): Promise<BankWallet> {
    const answer = await as(user).post("/wallets", { name, address: addr });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    return answer.body.wallet;
  }

  const depositOf = (user: { idToken: string }, id: number) =>
    as(user)
      .get(`/deposits/${id}`)
      .then((a) => a.body.deposit);

  return { db, as, addAccount, verifiedAccount, addWallet, depositOf };
}
