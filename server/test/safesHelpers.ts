/** What the Safe test files (safes.test.ts, safes.approvals.test.ts, safes.batch.test.ts) share: their hooks, owners that sign, Safe transactions run on chain, the API's calls. */
import { expect } from "chai";
import { Contract, HDNodeWallet, Interface, Wallet, getAddress, type Signer } from "ethers";
import { auditLog, safeApprovals, safeProposals } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { call, emailUser, revert, seeded, snapshot, stack, startTestServer, type LooseJson } from "./helpers";
import { createSafe } from "../src/services/scenarios/safeContracts";
import { readManifest } from "@common/manifestFile";
import { SAFE_INTERFACE, SAFE_TX_TYPES, execTransactionArgs, packSignatures, plainSafeTx, safeDomain, type SafeTx } from "@common/safe";
import { encodeTokenCall } from "@common/safeCalls";

export const CHAIN_ID = 31337;
/** Safe's marker before the first owner in its linked list (removeOwner names the owner before). */
const SENTINEL = "0x0000000000000000000000000000000000000001";
/** The Safe's own owner management, called by a Safe transaction of the Safe itself. */
const OWNER_MANAGER = new Interface([
  "function removeOwner(address prevOwner, address owner, uint256 _threshold)",
  "function changeThreshold(uint256 _threshold)",
]);

/** The local chain's deployment as the test stack wrote it: the token and the seed's Operations Safe. */
export function deployment() {
  const manifest = readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir });
  const safe = manifest.safes?.find((s) => s.name === "Operations Safe");
  if (!safe || !manifest.safeContracts) throw new Error("The seed did not record the Operations Safe in the manifest.");
  return { token: manifest.proxy, safe: safe.address, safeContracts: manifest.safeContracts };
}

/** A seeded account's wallet: the Operations Safe's owners are admin, minter and approver (2 of 3). */
export const owner = (name: string) => seeded(name);

/** `wallet`'s EIP-712 signature of `tx` for `safe`; chainId and safe may be another's (signatures that must be refused). */
export function sign(wallet: HDNodeWallet | Wallet, safe: string, tx: SafeTx, chainId: number = CHAIN_ID): Promise<string> {
  return wallet.signTypedData(safeDomain(chainId, safe), { SafeTx: SAFE_TX_TYPES.SafeTx.map((f) => ({ ...f })) }, tx);
}

export const safeAt = (address: string, runner: Signer = owner("admin")) => new Contract(address, SAFE_INTERFACE, runner);

export async function safeNonce(address: string): Promise<bigint> {
  return (await safeAt(address).nonce()) as bigint;
}

/** A USDX mint of `amount` base units to `to`, as the dashboard proposes it. */
export const mintTx = (to: string, amount: bigint, nonce: bigint | number) =>
  plainSafeTx(deployment().token, encodeTokenCall("mint", [to, amount]), nonce);

/**
 * Executes `tx` on chain with the signatures of `signers` (sorted as Safe wants them), sent by the
 * first signer's wallet, as an owner does from the dashboard; answers the transaction's hash.
 */
export async function execute(safe: string, tx: SafeTx, signers: HDNodeWallet[]): Promise<string> {
  const signatures = await Promise.all(signers.map(async (w) => ({ owner: w.address, signature: await sign(w, safe, tx) })));
  const sent = await safeAt(safe, signers[0]).execTransaction(...execTransactionArgs(tx, packSignatures(signatures)));
  const receipt = await sent.wait();
  expect(receipt?.status, "the Safe transaction").to.equal(1);
  return sent.hash as string;
}

/** Runs Safe transactions that change the Safe's own owners or threshold, signed by admin and approver. */
export async function manageOwners(safe: string, call: "removeOwner" | "changeThreshold", args: unknown[]): Promise<string> {
  const tx = plainSafeTx(safe, OWNER_MANAGER.encodeFunctionData(call, args), await safeNonce(safe));
  return execute(safe, tx, [owner("admin"), owner("approver")]);
}

/** removeOwner's arguments for `removed`: the owner before it in the Safe's list, and the threshold after. */
export async function removeOwnerArgs(safe: string, removed: string, threshold: number): Promise<unknown[]> {
  const owners = ((await safeAt(safe).getOwners()) as string[]).map((o) => getAddress(o));
  const at = owners.indexOf(getAddress(removed));
  return [at === 0 ? SENTINEL : owners[at - 1], removed, threshold];
}

/** A second Safe (admin and minter, 1 of 2) holding no USDX role. */
export async function roleLessSafe(saltNonce: bigint): Promise<string> {
  return createSafe(owner("admin"), deployment().safeContracts, [owner("admin").address, owner("minter").address], 1, saltNonce);
}

/** The API's Safe routes on the server `server()` returns, as the signed-in user `token()`. */
export function safeCalls(server: () => RunningServer, token: () => string) {
  const as = () => ({ token: token() });
  // Reads are kept until the head the indexer reads moves (chain/headCache.ts): a test that just wrote
  // to the chain itself first lets the indexer see the new head, as its next poll would.
  const seen = () => server().services.indexer.syncOnce();
  return {
    safes: async () => (await seen(), call(server(), "GET", "/api/safes", as())),
    list: async (safe: string) => (await seen(), call(server(), "GET", `/api/safes/${safe}/proposals`, as())),
    propose: (safe: string, tx: SafeTx, signature: string) =>
      call(server(), "POST", `/api/safes/${safe}/proposals`, { ...as(), body: { tx, signature } }),
    approve: (safe: string, hash: string, signature: string) =>
      call(server(), "POST", `/api/safes/${safe}/proposals/${hash}/approvals`, { ...as(), body: { signature } }),
  };
}

/**
 * The hooks each Safe test file registers: one server for the file on a chain snapshot; before each
 * test a snapshot, no stored proposals and a new user (the per-user rate limit, USER_SAFE_WRITES_PER_MINUTE,
 * is then the test's own). `use` is told the server and the user's token as they change.
 */
export function safeSuite(use: (server: RunningServer, token: string) => void): ReturnType<typeof safeCalls> {
  let server: RunningServer;
  let token: string;
  let outer: string;
  let each: string;
  before(async () => {
    outer = await snapshot();
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
    await revert(outer);
  });
  beforeEach(async () => {
    each = await snapshot();
    await forgetProposals(server);
    token = (await emailUser()).idToken;
    use(server, token);
  });
  afterEach(() => revert(each));
  return safeCalls(
    () => server,
    () => token,
  );
}

/** What the Safe tables and the audit log hold: a refusal must leave all three as they were. */
export async function stored(server: RunningServer) {
  const db = server.services.db.db;
  const [proposals, approvals, audit] = await Promise.all([
    db.select().from(safeProposals),
    db.select().from(safeApprovals),
    db.select().from(auditLog),
  ]);
  return { proposals: proposals.length, approvals: approvals.length, audit: audit.length };
}

/** Forgets every proposal (each test starts from an empty queue; the chain is reverted alike). */
export async function forgetProposals(server: RunningServer): Promise<void> {
  await server.services.db.db.delete(safeApprovals);
  await server.services.db.db.delete(safeProposals);
}

/** Expects a refusal: its status, its sentence exactly, and nothing stored by it. */
export async function expectRefused(
  server: RunningServer,
  request: () => Promise<{ status: number; body: LooseJson }>,
  status: number,
  sentence: string | RegExp,
): Promise<void> {
  const before = await stored(server);
  const answer = await request();
  expect(answer.status, JSON.stringify(answer.body)).to.equal(status);
  expect(answer.body.success).to.equal(false);
  if (typeof sentence === "string") expect(answer.body.error).to.equal(sentence);
  else expect(answer.body.error).to.match(sentence);
  expect(await stored(server), "nothing stored").to.deep.equal(before);
}
