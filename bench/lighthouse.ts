/**
 * Lighthouse bench (`npm run bench:lighthouse`; `npm run build` first, or it builds the dashboard
 * itself when frontend/dist is empty): starts the product's stack as the browser suite does
 * (e2e/hooks.ts), then runs Lighthouse (its default profile: mobile, simulated throttling) in
 * Debian's Chromium, offline, against
 *   - /login, signed out;
 *   - the Dashboard (/), signed in: the Login screen's Wallet tab with the development wallet,
 *     done with playwright-core over the DevTools protocol in the same Chromium, then Lighthouse
 *     loads / with its storage reset off, so Firebase's session (IndexedDB) survives.
 * Before every run the HTTP cache is cleared: a cold load, not one served from the sign-in's cache.
 * Prints each run's performance, accessibility and best-practices scores, LCP and TBT, then the
 * medians against the goals of issue 17 (exit 1 if one fails), and each accessibility or
 * best-practices audit that did not pass; the full reports go to .local/lighthouse/.
 * LIGHTHOUSE_RUNS (default 3) runs per page: simulated scores move by a point or two between runs,
 * more on a busy machine. DASHBOARD_DIST measures another build (an older one, to compare).
 * LIGHTHOUSE_TRACE=1 keeps each run's trace beside its report, to see which task blocked.
 * LIGHTHOUSE_TLS=1 serves it on HTTPS with HTTP/2, as the production path does with TLS_CERT and
 * TLS_KEY set, with a certificate made for the run; without it, plain HTTP/1.1.
 * Lighthouse is installed by its first run (loadLighthouse), not by npm install.
 */
import { createHash, X509Certificate } from "node:crypto";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { generate } from "selfsigned";
import { chromium } from "playwright-core";
import { formatTable } from "@common/textTable";
import { startLocalDashboard } from "../e2e/hooks";
import { ensureBuild, launchDebuggableChromium, signInWithDevWallet, type DebuggableChromium } from "./lib/browserRun";

const RUNS = Number(process.env.LIGHTHOUSE_RUNS || 3);
/** Each run's full report (JSON; open it in the Lighthouse viewer) for looking into a figure. */
const REPORTS = path.resolve(__dirname, "..", ".local", "lighthouse");
/** LIGHTHOUSE_TRACE=1: each run's trace too, beside its report (open it in DevTools' Performance panel). */
const TRACES = process.env.LIGHTHOUSE_TRACE === "1";
const CATEGORIES = ["performance", "accessibility", "best-practices"] as const;

interface Goal {
  page: string;
  route: string;
  signedIn: boolean;
  performance: number;
  accessibility: number;
}

const GOALS: Goal[] = [
  { page: "/login", route: "/login", signedIn: false, performance: 98, accessibility: 100 },
  { page: "Dashboard (signed in)", route: "/", signedIn: true, performance: 90, accessibility: 100 },
];

/** The little of Lighthouse's result (LH.Result) read here. */
interface Audit {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  numericValue?: number;
  details?: { items?: unknown[] };
}
interface Lhr {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, Audit>;
  runtimeError?: { message: string };
  runWarnings: string[];
  /** Lighthouse's measure of this machine's CPU at the time (higher is faster); a busy machine lowers it, and the scores. */
  environment: { benchmarkIndex: number };
}
/** Lighthouse's result: the report, and what it gathered (the page's trace among it). */
type Lighthouse = (url: string, flags: Record<string, unknown>) => Promise<{ lhr: Lhr; artifacts?: { Trace?: unknown } } | undefined>;

/** Lighthouse's pinned package.json and lockfile: this bench alone needs it, so npm install does not carry it. */
const PINNED = path.join(__dirname, "lighthouse");
/** Where the bench installs it on its first run (gitignored, as all of .local/). */
const TOOL = path.resolve(__dirname, "..", ".local", "lighthouse-tool");

/**
 * Lighthouse from TOOL, installed there first (npm ci of PINNED's lockfile) unless that lockfile's
 * install is there already. It is an ES module; ts-node compiles import() to require() here, so the
 * import is made at run time.
 */
async function loadLighthouse(): Promise<Lighthouse> {
  const lock = readFileSync(path.join(PINNED, "package-lock.json"), "utf8");
  const installed = path.join(TOOL, "package-lock.json");
  const entry = path.join(TOOL, "node_modules", "lighthouse", "core", "index.js");
  if (!existsSync(entry) || !existsSync(installed) || readFileSync(installed, "utf8") !== lock) {
    console.log(`Installing Lighthouse for this bench (once) into ${path.relative(process.cwd(), TOOL)}/ ...`);
    mkdirSync(TOOL, { recursive: true });
    for (const file of ["package.json", "package-lock.json"]) copyFileSync(path.join(PINNED, file), path.join(TOOL, file));
    const npm = spawnSync("npm", ["ci", "--prefix", TOOL, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], {
      stdio: "inherit",
    });
    if (npm.status !== 0) throw new Error(`npm ci of Lighthouse into ${TOOL} failed (its output is above).`);
  }
  const dynamicImport = new Function("specifier", "return import(specifier)") as (s: string) => Promise<{ default: Lighthouse }>;
  return (await dynamicImport(pathToFileURL(entry).href)).default;
}

interface RunFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  benchmarkIndex: number;
  /** Scored accessibility and best-practices audits that did not pass, by title. */
  failing: string[];
}

function figures(lhr: Lhr): RunFigures {
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
  const score = (category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  const failing = ["accessibility", "best-practices"].flatMap((category) =>
    lhr.categories[category].auditRefs
      // Weight 0: shown by Lighthouse, not scored (such as source maps it timed out fetching).
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((a) => a.score !== null && a.score < 1)
      .map((a) => `${category}: ${a.title} (${a.id}${a.details?.items?.length ? `, ${a.details.items.length} element(s)` : ""})`),
  );
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    lcpMs: lhr.audits["largest-contentful-paint"].numericValue ?? NaN,
    tbtMs: lhr.audits["total-blocking-time"].numericValue ?? NaN,
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    failing,
  };
}

/**
 * Before each run: signed out, the origin's storage cleared (Lighthouse's own reset leaves
 * IndexedDB, where Firebase keeps the session, alone); signed in, a sign-in. Then Chromium's HTTP
 * cache is cleared, so every run is a cold load.
 */
async function prepare(chrome: DebuggableChromium, dashboardUrl: string, signedIn: boolean): Promise<void> {
  const browser = await chromium.connectOverCDP(chrome.cdpUrl);
  try {
    const context = browser.contexts()[0];
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Storage.clearDataForOrigin", { origin: dashboardUrl, storageTypes: "all" });
    if (signedIn) await signInWithDevWallet(page, dashboardUrl);
    await cdp.send("Network.clearBrowserCache");
    await page.close();
  } finally {
    // Over CDP this disconnects and leaves the browser (and its profile) to Lighthouse.
    await browser.close();
  }
}

/**
 * One Lighthouse run of `goal`'s page, its report kept. Lighthouse sometimes fails to record the
 * trace (NO_NAVSTART, "Please run Lighthouse again"): such a run is tried once more.
 */
async function measure(
  lighthouse: Lighthouse,
  chrome: DebuggableChromium,
  dashboardUrl: string,
  goal: Goal,
  run: number,
): Promise<RunFigures> {
  for (let attempt = 1; ; attempt++) {
    await prepare(chrome, dashboardUrl, goal.signedIn);
    const result = await lighthouse(`${dashboardUrl}${goal.route}`, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
      // prepare() set the storage up; Lighthouse's reset would only repeat it, or end the session.
      disableStorageReset: true,
    });
    if (!result) throw new Error("Lighthouse returned no result.");
    mkdirSync(REPORTS, { recursive: true });
    const name = `${goal.signedIn ? "dashboard" : "login"}-${run}`;
    writeFileSync(path.join(REPORTS, `${name}.json`), JSON.stringify(result.lhr));
    if (TRACES && result.artifacts?.Trace) writeFileSync(path.join(REPORTS, `${name}.trace.json`), JSON.stringify(result.artifacts.Trace));
    if (result.lhr.runtimeError && attempt < 2) {
      console.log(`run ${run} ${goal.page}: ${result.lhr.runtimeError.message} Trying again.`);
      continue;
    }
    return figures(result.lhr);
  }
}

/**
 * A certificate for 127.0.0.1, made for this run (selfsigned: no network, no openssl), in PEM files
 * for TLS_CERT and TLS_KEY, with the base64 SHA-256 of its public key, which Chromium is told to trust.
 */
async function testCertificate(): Promise<{ dir: string; cert: string; key: string; spki: string }> {
  const pems = await generate([{ name: "commonName", value: "127.0.0.1" }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [{ name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }],
  });
  const dir = mkdtempSync(path.join(tmpdir(), "usdx-lighthouse-tls-"));
  const files = { cert: path.join(dir, "cert.pem"), key: path.join(dir, "key.pem") };
  writeFileSync(files.cert, pems.cert);
  writeFileSync(files.key, pems.private);
  const spki = new X509Certificate(pems.cert).publicKey.export({ type: "spki", format: "der" });
  return { dir, ...files, spki: createHash("sha256").update(spki).digest("base64") };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  const dist = ensureBuild();
  const lighthouse = await loadLighthouse();
  console.log("Starting the stack (Hardhat node, Auth emulator, deploy, seed, API server serving frontend/dist)...");
  const tls = process.env.LIGHTHOUSE_TLS === "1" ? await testCertificate() : null;
  const local = await startLocalDashboard(dist, tls ?? undefined);
  // Chromium trusts this run's certificate alone (by its public key), as a browser trusts a real one.
  const chrome = await launchDebuggableChromium(tls ? [`--ignore-certificate-errors-spki-list=${tls.spki}`] : []);
  const results = new Map<string, RunFigures[]>(GOALS.map((g) => [g.page, []]));
  try {
    for (let run = 1; run <= RUNS; run++) {
      for (const goal of GOALS) {
        const f = await measure(lighthouse, chrome, local.dashboardUrl, goal, run);
        results.get(goal.page)!.push(f);
        console.log(
          `run ${run}/${RUNS} ${goal.page}: performance ${f.performance}, accessibility ${f.accessibility}, best practices ${f.bestPractices}, LCP ${seconds(f.lcpMs)}, TBT ${Math.round(f.tbtMs)} ms (CPU benchmark ${f.benchmarkIndex})`,
        );
      }
    }
  } finally {
    await chrome.stop();
    await local.stop();
    if (tls) rmSync(tls.dir, { recursive: true, force: true });
  }

  const problems: string[] = [];
  const rows = GOALS.map((goal) => {
    const runs = results.get(goal.page)!;
    const m = {
      performance: median(runs.map((r) => r.performance)),
      accessibility: median(runs.map((r) => r.accessibility)),
      bestPractices: median(runs.map((r) => r.bestPractices)),
      lcp: median(runs.map((r) => r.lcpMs)),
      tbt: median(runs.map((r) => r.tbtMs)),
    };
    const perfOk = m.performance >= goal.performance;
    const a11yOk = m.accessibility >= goal.accessibility;
    if (!perfOk) problems.push(`${goal.page}: performance ${m.performance} is under ${goal.performance}.`);
    if (!a11yOk) problems.push(`${goal.page}: accessibility ${m.accessibility} is under ${goal.accessibility}.`);
    const range = (values: number[]) =>
      Math.min(...values) === Math.max(...values) ? "" : ` (${Math.min(...values)}-${Math.max(...values)})`;
    return [
      goal.page,
      `${m.performance}${range(runs.map((r) => r.performance))}`,
      `${m.accessibility}${range(runs.map((r) => r.accessibility))}`,
      `${m.bestPractices}${range(runs.map((r) => r.bestPractices))}`,
      seconds(m.lcp),
      `${Math.round(m.tbt)} ms`,
      `performance >= ${goal.performance}: ${perfOk ? "pass" : "FAIL"}; accessibility ${goal.accessibility}: ${a11yOk ? "pass" : "FAIL"}`,
    ];
  });
  console.log(`\nLighthouse ${RUNS === 1 ? "(one run)" : `medians of ${RUNS} runs (range)`}, mobile profile with simulated throttling:\n`);
  console.log(formatTable(["page", "performance", "accessibility", "best practices", "LCP", "TBT", "goals"], rows));
  for (const goal of GOALS) {
    const failing = [...new Set(results.get(goal.page)!.flatMap((r) => r.failing))];
    if (failing.length) console.log(`\n${goal.page}, audits that did not pass in some run:\n${failing.map((f) => `  - ${f}`).join("\n")}`);
  }
  for (const problem of problems) console.log(`FAIL: ${problem}`);
  if (problems.length) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
