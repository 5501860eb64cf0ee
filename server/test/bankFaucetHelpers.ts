/** What the mock bank faucet's two test files share: settings, users, and the proof and deposit steps. */
import { expect } from "chai";
import { Wallet, ZeroAddress } from "ethers";
import { USDX__factory } from "@bindings";
import { readManifest } from "@common/manifestFile";
import type { BankAccount, BankWallet } from "@common/apiTypes";
import { type RunningServer } from "../src/index";
import { call, provider, stack } from "./helpers";

export type User = { idToken: string; uid?: string };

// The per-minute limits have a test of their own; the other tests make more requests than people would.
export const FAUCET = {
  MOCK_BANK: "faucet",
  BANK_VERIFY_MS: "0",
  BANK_PROCESSING_MS: "100",
  BANK_COMPLETE_MS: "300",
  MOCK_BANK_WRITES_PER_MINUTE: "1000",
};
export const TOMORROW = "Try again tomorrow (the day turns at 00:00 UTC).";
export const NOT_VERIFIED = (name: string, address: string) =>
  `Invalid Deposit: the wallet '${name}' (${address}) is not verified. The test faucet mints only to wallets you have proved you control: verify it under My Wallets by signing a message with it, or deposit to your sign-in wallet.`;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const newWallet = () => Wallet.createRandom() as unknown as Wallet;
export const usdx = () => USDX__factory.connect(readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir }).proxy, provider());

export async function mintsTo(to: string): Promise<bigint[]> {
  const token = usdx();
  return (await token.queryFilter(token.filters.Transfer(ZeroAddress, to))).map((l) => l.args.value);
}

/** Calls /api/bank on `server` as `user`. */
export function bankOf(server: RunningServer) {
  return (user: User) => ({
    get: (p: string) => call(server, "GET", `/api/bank${p}`, { token: user.idToken }),
    post: (p: string, body: unknown = {}) => call(server, "POST", `/api/bank${p}`, { token: user.idToken, body }),
  });
}

/** A verified bank account (BANK_VERIFY_MS=0: verified when next read). */
export async function verifiedAccount(server: RunningServer, user: User): Promise<number> {
  const as = bankOf(server)(user);
  const answer = await as.post("/accounts", {
    name: "Checking",
    type: "checking",
    accountNumber: "000123456789",
    routingNumber: "021000021",
  });
  expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
  const listed = await as.get("/accounts");
  expect(listed.body.accounts.find((a: BankAccount) => a.id === answer.body.account.id)?.status).to.equal("verified");
  return answer.body.account.id;
}

/** A challenge for `wallet` signed by `signer` (the wallet itself unless a test forges it). */
export async function signedChallenge(server: RunningServer, user: User, wallet: Wallet, signer: Wallet = wallet) {
  const issued = await bankOf(server)(user).post("/wallets/challenge", { address: wallet.address });
  expect(issued.status, JSON.stringify(issued.body)).to.equal(201);
  return {
    challenge: issued.body.challenge as string,
    message: issued.body.message as string,
    signature: await signer.signMessage(issued.body.message),
  };
}

/** Adds `wallet` to `user`'s wallets with a signed challenge. */
export async function provedWallet(server: RunningServer, user: User, wallet: Wallet, name = "Proved"): Promise<BankWallet> {
  const { challenge, signature } = await signedChallenge(server, user, wallet);
  const added = await bankOf(server)(user).post("/wallets", { name, address: wallet.address, challenge, signature });
  expect(added.status, JSON.stringify(added.body)).to.equal(201);
  return added.body.wallet;
}
