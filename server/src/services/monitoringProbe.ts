import type { Services } from ".";
import { redactRpcUrl } from "../routes/health";
import { DATABASE_UNAVAILABLE } from "../errors";
import type { PartProbe } from "./monitoring";

const n = (value: number) => value.toLocaleString("en-US");

/**
 * Each part as /monitoring shows it, in words an operator reads: the dependencies asked now (the
 * chain's head, a database ping, the identity service), the background loops from their own
 * status. Errors name no secret: an RPC URL is cut to its origin (a provider's key is in its path).
 */
export async function probeParts(services: Services): Promise<PartProbe[]> {
  const { chain, db, auth, indexer, batchWatcher, bank, leadership, config } = services;
  const redact = (text: string | null) => (text === null ? null : redactRpcUrl(text, config.rpcUrl));
  const rpcOrigin = new URL(config.rpcUrl).origin;
  const [head, database, authOk] = await Promise.all([
    chain.provider.getBlockNumber().catch(() => null),
    db.ping().catch(() => false),
    auth.ping().catch(() => false),
  ]);
  const leads = leadership.status().leader;
  const index = indexer.status();
  const watcher = batchWatcher.status();
  const bankStatus = bank.status();
  const loop = (running: boolean) => (running ? "running here" : leads ? "stopped" : "runs on the leading replica");
  return [
    {
      part: "chain",
      ok: head !== null,
      detail: head !== null ? `${config.network}, block ${n(head)}` : `${config.network}: no answer from ${rpcOrigin}`,
      error: head !== null ? null : `The RPC node at ${rpcOrigin} is not answering.`,
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
          : `checkpoint ${n(index.checkpoint)}${index.lag !== null ? `, ${n(index.lag)} block${index.lag === 1 ? "" : "s"} behind the head` : ""}; ${index.running ? "indexing here" : "following the leading replica"}`,
      error: redact(index.lastError),
    },
    { part: "batchWatcher", ok: watcher.lastError === null, detail: loop(watcher.running), error: redact(watcher.lastError) },
    {
      part: "mockBank",
      ok: !bank.enabled || bankStatus.lastError === null,
      detail: bank.enabled ? `${bank.mode} mode; its worker ${loop(bankStatus.running)}` : `off: ${bank.offReason}`,
      error: bank.enabled ? redact(bankStatus.lastError) : null,
    },
  ];
}
