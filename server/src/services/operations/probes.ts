import type { Services } from "..";
import { redactRpcUrl } from "../../lib/redact";
import { DATABASE_UNAVAILABLE } from "../../lib/errors";
import type { PartProbe } from "./monitoring";
import { count as n, plural } from "@common/wording";

/** How long the head may go unread before the chain counts as not answering: longer than the loop's slowest retry (15 s) plus a call's budget. */
const CHAIN_SILENT_MS = 30_000;

/**
 * Each part as /monitoring shows it, in words an operator reads: the database and the identity
 * service asked now, the chain from the head the indexer last read, the background loops from their
 * own status. Errors name no secret: an RPC URL is cut to its origin (a provider's key is in its path).
 */
/** The parts /monitoring looks at. */
export type ProbedParts = Pick<
  Services,
  "config" | "db" | "auth" | "indexer" | "heads" | "batchWatcher" | "bank" | "alerts" | "leadership"
>;

/** Whether the chain answers, as the loops' own head reads say (no request of ours asks the node). */
export type ChainSeen = { state: "starting" } | { state: "answers"; head: number } | { state: "silent" };

/**
 * The chain as /monitoring and /api/health show it: it answers while the head the indexer (or the
 * follower's poll) last read is recent and no attempt since has failed; before the first read, starting.
 */
export function chainSeen(indexer: Pick<Services["indexer"], "lastHeadRead">, pollMs: number, now = Date.now()): ChainSeen {
  const read = indexer.lastHeadRead;
  if (read === null) return { state: "starting" };
  const fresh = !read.failedSince && now - read.at <= Math.max(3 * pollMs, CHAIN_SILENT_MS);
  return fresh ? { state: "answers", head: read.head } : { state: "silent" };
}

export async function probeParts(services: ProbedParts): Promise<PartProbe[]> {
  const { db, auth, indexer, heads, batchWatcher, bank, alerts, leadership, config } = services;
  const redact = (text: string | null) => (text === null ? null : redactRpcUrl(text, config.rpcUrl));
  const rpcOrigin = new URL(config.rpcUrl).origin;
  // The chain is not asked here: the indexer (or the follower's poll) reads the head every
  // INDEXER_POLL_MS already, and a provider counts every call (bench:rpc-idle). The node answers if
  // that read succeeded lately; past a few polls (the loop retries less often while it fails) it does not.
  // The deliveries waiting are read only where the loop runs; null when the database does not answer (its own part says so).
  const [database, authOk, waiting] = await Promise.all([
    db.ping().catch(() => false),
    auth.ping().catch(() => false),
    alerts.status().running ? alerts.waiting().catch(() => null) : Promise.resolve(null),
  ]);
  const chain = chainSeen(indexer, config.indexer.pollMs);
  const leads = leadership.status().leader;
  const index = indexer.status();
  const watcher = batchWatcher.status();
  const bankStatus = bank.status();
  const alertLoop = alerts.status();
  const loop = (running: boolean) => (running ? "running here" : leads ? "stopped" : "runs on the leading replica");
  return [
    chain.state === "starting"
      ? // Before the first read (the server has just started): starting, not failing.
        { part: "chain", ok: true, detail: `${config.network}: starting, the head not read yet`, error: null }
      : {
          part: "chain",
          ok: chain.state === "answers",
          detail:
            chain.state === "answers" ? `${config.network}, block ${n(chain.head)}` : `${config.network}: no answer from ${rpcOrigin}`,
          error: chain.state === "answers" ? null : `The RPC node at ${rpcOrigin} is not answering.`,
        },
    {
      part: "database",
      ok: database,
      detail: db.kind === "postgres" ? "PostgreSQL" : "PGlite (embedded)",
      error: database ? null : DATABASE_UNAVAILABLE,
    },
    {
      part: "auth",
      ok: authOk,
      detail: auth.mode === "emulator" ? "Firebase Auth emulator" : "Firebase Authentication",
      error: authOk ? null : "The identity service is not answering: sign-in and signed-in requests fail until it does.",
    },
    {
      part: "indexer",
      // Before its first step the index has no checkpoint: starting, not failing.
      ok: index.lastError === null,
      detail:
        index.checkpoint === null
          ? "starting: no checkpoint yet"
          : `checkpoint ${n(index.checkpoint)}${index.lag !== null ? `, ${plural(index.lag, "block")} behind the head` : ""}; ${index.running ? `indexing here, ${headsWord(heads)}` : "following the leading replica"}`,
      error: redact(index.lastError),
    },
    { part: "batchWatcher", ok: watcher.lastError === null, detail: loop(watcher.running), error: redact(watcher.lastError) },
    {
      part: "mockBank",
      ok: !bank.enabled || bankStatus.lastError === null,
      detail: bank.enabled ? `${bank.mode} mode; its worker ${loop(bankStatus.running)}` : `off: ${bank.offReason}`,
      error: bank.enabled ? redact(bankStatus.lastError) : null,
    },
    {
      part: "alerts",
      ok: alertLoop.lastError === null,
      detail: `${loop(alertLoop.running)}${waiting === null ? "" : `; ${waiting === 0 ? "no delivery" : plural(waiting, "delivery", "deliveries")} waiting`}`,
      error: redact(alertLoop.lastError),
    },
  ];
}

/** How the indexer learns of new blocks, as the indexer's part says it. */
function headsWord(heads: ProbedParts["heads"]): string {
  if (!heads) return "polling for heads";
  return heads.live ? "heads pushed over WebSocket" : "polling for heads until the WebSocket is back";
}
