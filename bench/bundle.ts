/**
 * Bundle bench (`npm run bench:bundle`): builds the dashboard and prints what a first visit
 * downloads (the entry script and everything it imports statically, gzipped) against the
 * 250 KB budget of issue 4, then every lazily loaded chunk (routes, ethers, the chart).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { formatTable } from "../scripts/lib/report";

const INITIAL_JS_BUDGET_BYTES = 250 * 1024;
const root = path.resolve(__dirname, "..");
const dist = path.join(root, "frontend", "dist");

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function main(): void {
  if (!process.argv.includes("--no-build")) {
    execFileSync(path.join(root, "node_modules", ".bin", "vite"), ["build", "--config", "frontend/vite.config.mts", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
  }
  const html = readFileSync(path.join(dist, "index.html"), "utf8");
  // What index.html loads before the first render: the entry module and its modulepreloads.
  const initial = new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]));
  const assets = readdirSync(path.join(dist, "assets")).filter((f) => f.endsWith(".js") || f.endsWith(".css"));
  const rows = assets.map((file) => {
    const bytes = readFileSync(path.join(dist, "assets", file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, initial: initial.has(`assets/${file}`) };
  });
  rows.sort((a, b) => Number(b.initial) - Number(a.initial) || b.gzip - a.gzip);
  console.log(
    formatTable(
      ["file", "loaded", "raw", "gzip"],
      rows.map((r) => [r.file, r.initial ? "first visit" : "on demand", kb(r.raw), kb(r.gzip)]),
    ),
  );
  const initialJs = rows.filter((r) => r.initial && r.file.endsWith(".js")).reduce((sum, r) => sum + r.gzip, 0);
  const css = rows.filter((r) => r.file.endsWith(".css") && r.initial).reduce((sum, r) => sum + r.gzip, 0);
  const verdict = initialJs <= INITIAL_JS_BUDGET_BYTES ? "within" : "OVER";
  console.log(`\nInitial JavaScript: ${kb(initialJs)} gzipped, ${(initialJs / INITIAL_JS_BUDGET_BYTES).toFixed(2)} of the ${kb(INITIAL_JS_BUDGET_BYTES)} budget (${verdict}).`);
  console.log(`CSS: ${kb(css)} gzipped. Chunks loaded on demand: ${rows.filter((r) => !r.initial && r.file.endsWith(".js")).length}.`);
  if (initialJs > INITIAL_JS_BUDGET_BYTES) process.exitCode = 1;
}

main();
