/**
 * The indexer's catch-up behind a hosted RPC provider, for the API bench (bench/api.ts): the chain
 * the bench wrote, indexed from scratch by a second server (a fresh in-memory database) whose
 * RPC_URL is the test proxy (server/test/providerProxy.ts) playing a provider: its eth_getLogs
 * limits in its own words, latency on every request, the odd 429. Sepolia's indexer settings where
 * they matter here (the deployment checked every 5 minutes rather than every step, the mock bank
 * off); INDEXER_BATCH_BLOCKS at its default. Each profile's server catches up on each range right
 * after the direct server did, and its index must then hold exactly what the direct index holds.
 *   BENCH_PROVIDERS: the profiles to run, by key (default all; "none" for none).
 */
import { loadConfig } from "../server/src/config";
import { startServer } from "../server/src/index";
import type { RunningServer } from "../server/src/index";
import { createLogger } from "../server/src/lib/logger";
import { PROVIDERS, ProviderProxy } from "../server/test/providerProxy";
import type { ProxySettings } from "../server/test/providerProxy";
import { formatTable } from "@common/textTable";

/** A hosted endpoint's round trip, on every request. */
const LATENCY_MS = 40;

export interface Profile {
  key: string;
  name: string;
  /** What the provider does, in words, printed under the table. */
  about: string;
  /** The proxies in front of the node, the server's first: one each where a provider has two limits. */
  proxies: ProxySettings[];
}

export const PROFILES: Profile[] = [
  {
    key: "alchemy",
    name: "Alchemy free tier",
    about: `eth_getLogs over at most 10 blocks (the free plan's range on Ethereum and its testnets), ${LATENCY_MS} ms a request, a 429 with Retry-After: 1 every 100th request`,
    proxies: [{ logs: PROVIDERS.alchemy(10), latencyMs: LATENCY_MS, rateLimitEvery: 100, retryAfter: "1" }],
  },
  {
    key: "infura",
    name: "Infura",
    about: `eth_getLogs over at most 10,000 blocks and with at most 10,000 results, ${LATENCY_MS} ms a request`,
    proxies: [{ logs: PROVIDERS.infuraRange(10_000), latencyMs: LATENCY_MS }, { logs: PROVIDERS.infuraResults(10_000) }],
  },
];

/** The profiles BENCH_PROVIDERS names (all by default). */
export function selectedProfiles(setting = process.env.BENCH_PROVIDERS): Profile[] {
  if (!setting) return PROFILES;
  const keys = setting.split(",").map((k) => k.trim().toLowerCase());
  const unknown = keys.filter((k) => k !== "none" && !PROFILES.some((p) => p.key === k));
  if (unknown.length > 0)
    throw new Error(`BENCH_PROVIDERS names no profile '${unknown.join("', '")}' (known: ${PROFILES.map((p) => p.key).join(", ")}, none)`);
  return PROFILES.filter((p) => keys.includes(p.key));
}

/** One range the direct server caught up on. */
export interface RangeRun {
  range: string;
  blocks: number;
  events: number;
  ms: number;
}

/** What an index holds, in a form two indexes can be compared by. */
export interface Fingerprint {
  events: number;
  lastBlock: number;
  lastLogIndex: number;
  /** md5 of every event's block, log index and block hash, in order. */
  digest: string;
}

export async function indexFingerprint(server: RunningServer): Promise<Fingerprint> {
  const answer = (await server.services.db.db.execute(
    `select count(*)::int as events, coalesce(max(block_number), 0)::int as last_block,
       coalesce((select max(log_index) from chain_events where block_number = (select max(block_number) from chain_events)), -1)::int as last_log_index,
       md5(coalesce(string_agg(block_number || ':' || log_index || ':' || block_hash, ',' order by block_number, log_index), '')) as digest
     from chain_events`,
  )) as unknown as { rows: { events: number; last_block: number; last_log_index: number; digest: string }[] };
  const row = answer.rows[0];
  return { events: row.events, lastBlock: row.last_block, lastLogIndex: row.last_log_index, digest: row.digest };
}

const describe = (f: Fingerprint) => `${f.events} events, the last at block ${f.lastBlock} log ${f.lastLogIndex}`;

/** One profile's server, proxies and figures, range after range. */
export class ProviderCatchUp {
  readonly rows: string[][] = [];
  readonly failures: string[] = [];
  private server: RunningServer | null = null;
  /** The server's proxy first. */
  private proxies: ProviderProxy[] = [];
  /** Requests each proxy had answered when the last range ended. */
  private counted: number[] = [];
  private stored = 0;

  constructor(
    readonly profile: Profile,
    /** The direct server's environment; RPC_URL and the Sepolia-like settings replace its own. */
    private readonly env: Record<string, string>,
    private readonly nodeUrl: string,
  ) {}

  /** Catches up to the head (starting the server the first time) and checks the index equals `expected`. */
  async run(direct: RangeRun, expected: Fingerprint): Promise<void> {
    if (!this.server) {
      let upstream = this.nodeUrl;
      for (const settings of [...this.profile.proxies].reverse()) {
        const proxy = await new ProviderProxy(upstream, settings).start();
        this.proxies.unshift(proxy);
        upstream = proxy.url;
      }
      this.counted = this.proxies.map(() => 0);
      const config = loadConfig({
        ...this.env,
        RPC_URL: upstream,
        // Sepolia's: the deployment checked every 5 minutes (not every step), no mock bank.
        INDEXER_DEPLOYMENT_CHECK_MS: "300000",
        MOCK_BANK: "off",
        // No step of its own between the bench's (the ticker is stopped after each range too).
        INDEXER_POLL_MS: "600000",
      });
      this.server = await startServer(config, createLogger("silent"));
    }
    const indexer = this.server.services.indexer;
    process.stdout.write(`  through ${this.profile.name}, ${direct.range}: `);
    const t = Date.now();
    let failed: string | null = null;
    try {
      // As for the direct server: startServer began the first step; syncOnce runs to the head after it.
      await indexer.syncOnce();
    } catch (error) {
      failed = (error as Error).message;
    }
    const ms = Date.now() - t;
    await indexer.stop();
    const [outer] = this.proxies;
    const seen = outer.seen.slice(this.counted[0]);
    const refused = this.proxies.reduce(
      (sum, proxy, i) =>
        sum +
        proxy.seen
          .slice(this.counted[i])
          .flatMap((s) => s.logs ?? [])
          .filter((l) => l.refused).length,
      0,
    );
    this.counted = this.proxies.map((p) => p.seen.length);
    const got = await indexFingerprint(this.server);
    const events = got.events - this.stored;
    this.stored = got.events;
    const s = ms / 1000;
    this.rows.push([
      this.profile.name,
      direct.range,
      String(direct.blocks),
      String(events),
      s.toFixed(2),
      (direct.blocks / s).toFixed(0),
      events > 0 ? (events / s).toFixed(0) : "-",
      String(seen.length),
      String(seen.reduce((n, r) => n + r.methods.length, 0)),
      String(refused),
      String(seen.filter((r) => r.status === 429).length),
      `${(ms / direct.ms).toFixed(1)}x`,
    ]);
    console.log(`${s.toFixed(1)} s`);
    if (failed) {
      this.failures.push(`Through ${this.profile.name}, the indexer's catch-up on ${direct.range} failed: ${failed}`);
    } else if (describe(got) !== describe(expected)) {
      this.failures.push(
        `Through ${this.profile.name}, after ${direct.range} the index holds ${describe(got)}, but the direct run stored ${describe(expected)}: the indexer lost, doubled or changed events behind this provider.`,
      );
    } else if (got.digest !== expected.digest) {
      this.failures.push(
        `Through ${this.profile.name}, after ${direct.range} the index holds ${describe(got)} as the direct run does, but not the same events (a position or a block hash differs): the indexer changed events behind this provider.`,
      );
    }
  }

  /** Stops the server and its proxies (again: nothing). */
  async close(): Promise<void> {
    const [server, proxies] = [this.server, this.proxies];
    this.server = null;
    this.proxies = [];
    await server?.close();
    for (const proxy of proxies) await proxy.stop();
  }
}

/** The table of every profile's ranges, the profiles in words, and any failure; false if one failed. */
export function reportProviderCatchUp(runs: ProviderCatchUp[], batchBlocks: number): boolean {
  if (runs.length === 0) return true;
  console.log(
    `\nIndexer catch-up through a hosted provider (the test proxy in front of the same node; a second server, a fresh database; INDEXER_BATCH_BLOCKS=${batchBlocks})\n`,
  );
  console.log(
    formatTable(
      [
        "provider",
        "range",
        "blocks",
        "events",
        "seconds",
        "blocks/s",
        "events/s",
        "requests",
        "calls",
        "getLogs refused",
        "429s",
        "slower than direct",
      ],
      runs.flatMap((r) => r.rows),
    ),
  );
  console.log(
    "\n  requests: HTTP requests the provider answered (429s included); calls: JSON-RPC calls in them (ethers batches block reads)",
  );
  for (const r of runs) console.log(`  ${r.profile.name}: ${r.profile.about}`);
  const failures = runs.flatMap((r) => r.failures);
  for (const f of failures) console.log(`\n${f}`);
  if (failures.length === 0)
    console.log(
      "\n  each profile's index equals the direct index after each range (count, last block and log index, every event's position and block hash)",
    );
  return failures.length === 0;
}
