import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type DeploymentManifest, validateManifest } from "@common/manifest";
import { deploymentsDir, manifestPath, readManifest, writeManifest } from "@common/manifestFile";
import { LOCAL_CHAIN, describeChain } from "@common/networks";
import { HttpError, badRequest, forbidden, notFound } from "../../lib/errors";
import type { ScenarioProgress, SnapshotSummary } from "./index";

/**
 * Named snapshots of the local node, to return to (issue 31, part 3). Hardhat's `evm_snapshot`
 * answers an id; `evm_revert` to it returns the node to that state and consumes the id, together
 * with every id taken after it (checked on Hardhat 2.29: ids count up from 0x1 and are never
 * reused within a run; a consumed or unknown id answers false). So a restore takes a fresh
 * snapshot at once and keeps it under the same name, and drops the names it discarded.
 *
 * The names live in `<deployments>/localhost.snapshots.json`, beside the manifest, each with the
 * block it was taken at (a restarted node is another chain: its block there has another hash) and
 * the manifest as it was then, written back on restore (Safes a scenario created afterwards go).
 */

/** What a snapshot command talks to: the node's JSON-RPC (an ethers JsonRpcProvider, or snapshotCommand's own). */
export interface NodeRpc {
  send(method: string, params: unknown[]): Promise<unknown>;
}

/** Where the store is: DEPLOYMENTS_DIR from this environment, as for the manifest. */
export interface SnapshotOptions {
  env?: NodeJS.ProcessEnv;
}

export interface StoredSnapshot {
  /** The node's id for it (hex), as evm_snapshot answered. */
  id: string;
  blockNumber: number;
  blockHash: string;
  takenAt: string;
  /** The deployment manifest when it was taken; null when there was none. */
  manifest: DeploymentManifest | null;
}

export type SnapshotStore = Record<string, StoredSnapshot>;

export interface RestoreResult {
  snapshot: SnapshotSummary;
  /** The chain's head after the restore: the snapshot's block and the empty block mined on it. */
  head: number;
  /** Snapshots taken after this one, which the node discarded with the restore. */
  discarded: string[];
}

/** Letters, digits, - and _, 1 to 40 of them: a name that is safe in a file, a URL and a shell. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9_-]{1,40}$/;

/** What the database keeps across a restore, said wherever a restore's result is shown. */
export const KEPT_ACROSS_RESTORE =
  "Contacts, bank accounts and batch jobs' records live in the API's database, not on the chain, and are kept; the server re-reads the chain within a poll.";

/** A snapshot the node no longer has: its state cannot be returned to (HTTP 410 when the panel asks). */
export class SnapshotGone extends HttpError {
  constructor(message: string) {
    super(410, message);
  }
}

export function storePath(options: SnapshotOptions = {}): string {
  return path.join(deploymentsDir(options.env), `${LOCAL_CHAIN.network}.snapshots.json`);
}

/** The store as written; a file that is not one is refused with its path, never overwritten unread. */
export function readStore(options: SnapshotOptions = {}): SnapshotStore {
  const file = storePath(options);
  if (!existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}): fix or delete it to keep snapshots.`, { cause: error });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error(`${file} is not a list of snapshots.`);
  for (const [name, entry] of Object.entries(parsed as Record<string, unknown>)) {
    const e = entry as Partial<StoredSnapshot> | null;
    if (
      !e ||
      typeof e.id !== "string" ||
      !Number.isInteger(e.blockNumber) ||
      typeof e.blockHash !== "string" ||
      typeof e.takenAt !== "string"
    )
      throw new Error(`${file}: the snapshot '${name}' is not a snapshot record (id, blockNumber, blockHash, takenAt).`);
  }
  return parsed as SnapshotStore;
}

function writeStore(store: SnapshotStore, options: SnapshotOptions): void {
  const file = storePath(options);
  mkdirSync(path.dirname(file), { recursive: true });
  // Written whole, then renamed: a command stopped halfway leaves the old list, never half of one.
  writeFileSync(`${file}.tmp`, JSON.stringify(store, null, 2) + "\n");
  renameSync(`${file}.tmp`, file);
}

const summary = (name: string, s: StoredSnapshot): SnapshotSummary => ({ name, blockNumber: s.blockNumber, takenAt: s.takenAt });

/** Refuses a name outside SNAPSHOT_NAME, in a sentence that says what a name may be. */
export function checkSnapshotName(name: unknown): string {
  if (typeof name !== "string" || !SNAPSHOT_NAME.test(name))
    throw badRequest(
      `'${String(name ?? "")}' is not a snapshot name: use 1 to 40 letters, digits, - or _ (for example before-batch or paused_2).`,
    );
  return name;
}

/** Refuses any node that is not the local chain (or a fork of it made by npm start), before anything else is sent. */
export async function checkLocalChain(node: NodeRpc): Promise<void> {
  const chainId = Number(await node.send("eth_chainId", []));
  if (chainId !== LOCAL_CHAIN.chainId)
    throw forbidden(
      `Snapshots are for the local chain only (chain ${LOCAL_CHAIN.chainId}): this node is on ${describeChain(chainId)}. Nothing was sent.`,
    );
}

interface Head {
  blockNumber: number;
  blockHash: string;
}

async function blockAt(node: NodeRpc, tag: number | "latest"): Promise<Head | null> {
  const block = (await node.send("eth_getBlockByNumber", [typeof tag === "number" ? `0x${tag.toString(16)}` : tag, false])) as {
    number: string;
    hash: string;
  } | null;
  return block ? { blockNumber: Number(block.number), blockHash: block.hash } : null;
}

/** An evm_snapshot of the head, with the head it was taken at (read before and after: a block mined between is tried again). */
async function snapshotHead(node: NodeRpc): Promise<{ id: string } & Head> {
  for (let attempt = 0; ; attempt++) {
    const before = await blockAt(node, "latest");
    const id = String(await node.send("evm_snapshot", []));
    const after = await blockAt(node, "latest");
    if (before && after && before.blockHash === after.blockHash) return { id, ...after };
    if (attempt === 2) throw new Error("The chain kept moving while the snapshot was taken: try again when nothing else is sending.");
  }
}

/** Whether the node's chain still has the block the snapshot was taken at (a restarted node does not). */
async function onThisChain(node: NodeRpc, s: StoredSnapshot): Promise<boolean> {
  const block = await blockAt(node, s.blockNumber);
  return block?.blockHash === s.blockHash;
}

/** The ids the node discards when it returns to `id`: every one taken after it. */
const takenAfter = (a: StoredSnapshot, b: StoredSnapshot) => BigInt(a.id) > BigInt(b.id);

/**
 * Takes a snapshot of the node now and keeps it as `name` (a name already kept is replaced), with
 * the deployment manifest as it is. Local chain only.
 */
export async function takeSnapshot(node: NodeRpc, name: string, options: SnapshotOptions = {}): Promise<SnapshotSummary> {
  checkSnapshotName(name);
  await checkLocalChain(node);
  const store = readStore(options);
  const { id, blockNumber, blockHash } = await snapshotHead(node);
  const manifest = existsSync(manifestPath(LOCAL_CHAIN.network, options.env)) ? readManifest(LOCAL_CHAIN.network, options.env) : null;
  store[name] = { id, blockNumber, blockHash, takenAt: new Date().toISOString(), manifest };
  writeStore(store, options);
  return summary(name, store[name]);
}

/**
 * Returns the node to the snapshot `name`: checks it is still on this chain, reverts to it, takes
 * it again at once (a revert consumes the id) under the same name, writes its manifest back, and
 * mines one empty block on it. Hardhat pushes no head for a revert, so without that block a server
 * that follows pushed heads (RPC_WS_URL, as npm start runs it) would not look until its safety-net
 * poll; with it the restore is what a reorganisation is, a new head on another branch, seen at
 * once by the server and by wallets. The snapshots taken after it are discarded by the node and
 * leave the list. A snapshot the node no longer has is refused (SnapshotGone) and leaves the list.
 */
export async function restoreSnapshot(
  node: NodeRpc,
  name: string,
  onProgress: (progress: ScenarioProgress) => void = () => undefined,
  options: SnapshotOptions = {},
): Promise<RestoreResult> {
  checkSnapshotName(name);
  await checkLocalChain(node);
  const store = readStore(options);
  const snapshot = store[name];
  if (!snapshot) {
    const kept = Object.keys(store);
    throw notFound(
      `There is no snapshot named '${name}'. ${kept.length > 0 ? `Saved snapshots: ${kept.join(", ")}.` : "None is saved yet."}`,
    );
  }
  const total = 4;
  const step = (done: number, label: string) => onProgress({ done, total, label });
  const forget = (why: string) => {
    delete store[name];
    writeStore(store, options);
    return new SnapshotGone(`The snapshot '${name}' is gone: ${why}. It was removed from the list; take a new one.`);
  };

  step(0, `check that block ${snapshot.blockNumber} of '${name}' is on this chain`);
  if (!(await onThisChain(node, snapshot)))
    throw forget(`block ${snapshot.blockNumber} on this node is not the block it was taken at (the node was restarted or reset since)`);
  if ((await node.send("evm_revert", [snapshot.id])) !== true)
    throw forget("the node no longer has it (another tool returned to it or to an earlier snapshot)");
  const head = await blockAt(node, "latest");
  // Block hashes pin the state: any other head means the id was another run's (possible only at an identical genesis).
  if (head?.blockHash !== snapshot.blockHash)
    throw forget(`the node went back to block ${head?.blockNumber ?? "?"} instead, a snapshot of an earlier run of the node`);
  step(1, `return the node to block ${snapshot.blockNumber}`);

  const discarded = Object.keys(store).filter((other) => other !== name && takenAfter(store[other], snapshot));
  for (const other of discarded) delete store[other];
  const again = await snapshotHead(node);
  store[name] = { ...snapshot, id: again.id };
  writeStore(store, options);
  step(2, `keep '${name}' to return to again`);

  if (snapshot.manifest) writeManifest(validateManifest(snapshot.manifest, storePath(options)), options.env);
  step(3, snapshot.manifest ? "write the deployment manifest back as it was" : "no deployment manifest was kept with it");

  await node.send("evm_mine", []);
  const mined = await blockAt(node, "latest");
  step(4, `mine an empty block ${mined?.blockNumber ?? snapshot.blockNumber + 1}, so the server and wallets see the change`);
  return { snapshot: summary(name, store[name]), head: mined?.blockNumber ?? snapshot.blockNumber + 1, discarded };
}

/**
 * The snapshots kept, oldest block first. Given the node, those it no longer has (its block at
 * their height has another hash: the node was restarted) leave the list first.
 */
export async function listSnapshots(node?: NodeRpc, options: SnapshotOptions = {}): Promise<SnapshotSummary[]> {
  if (node) await checkLocalChain(node);
  const store = readStore(options);
  if (node) {
    const gone: string[] = [];
    for (const [name, s] of Object.entries(store)) if (!(await onThisChain(node, s))) gone.push(name);
    if (gone.length > 0) {
      for (const name of gone) delete store[name];
      writeStore(store, options);
    }
  }
  return Object.entries(store)
    .map(([name, s]) => summary(name, s))
    .sort((a, b) => a.blockNumber - b.blockNumber || a.takenAt.localeCompare(b.takenAt));
}
