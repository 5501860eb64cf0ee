import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";

/**
 * `npm run test:lanes` (what `npm test` runs once the contracts are compiled): every check and
 * suite, in three lanes that run side by side: each lane's commands one after another, each line
 * prefixed with its lane, as concurrently did. What this adds: every lane's whole output is kept in
 * .local/test-lanes/, and when a lane fails its failures are printed again at the very end. CI
 * shows only the tail of a run, where interleaved lanes would otherwise bury the one failure that
 * matters.
 *
 * Three lanes on CI's 2 cores: the suites wait much of their time on something that is not this
 * machine's CPU (the spec's timings, a block every 2 s, a browser's rendering round trips), and two
 * lanes left the cores about a fifth idle. No command waits for another: `npm run coverage`
 * compiles its instrumented contracts into .local/coverage/ (hardhat.config.ts), not over the
 * artifacts the other suites deploy. The lanes are balanced by the minutes each command took on
 * a fresh clone (printed at the end): 9.6 + 2.4, 1.0 + 0.4 + 2.6 + 7.6, 3.0 + 1.3 + 6.0 + 1.5.
 */

/** The dashboard's production build that both browser suites serve (built once by their lane). */
const E2E_DIST = path.resolve(__dirname, "..", ".local", "e2e-dist");

/** A command, and the command of another lane that must have finished before it starts. */
type LaneCommand = string | { run: string; after: string };

const LANES: { name: string; commands: LaneCommand[] }[] = [
  { name: "server+coverage", commands: ["npm run test:server", "npm run coverage"] },
  {
    name: "checks+browsers",
    // The public-network suite, then the browser suite, one after the other: the rehearsal times
    // the status modal against a block every 2 s, and beside the browser suite (two Chromiums) it
    // missed a state.
    // Both browser suites serve one production build, made first (E2E_DASHBOARD_DIST, e2e/hooks.ts).
    commands: [
      "npm run typecheck",
      `npm run build:dashboard -- --logLevel error --outDir ${E2E_DIST} --emptyOutDir`,
      "npm run test:e2e:network",
      "npm run test:e2e",
    ],
  },
  {
    name: "dashboard+postgres",
    commands: [
      "npm run test:frontend -- --maxWorkers=1",
      "npm run lint",
      "npm run test:server:postgres",
      "npm run test:contracts:uncovered",
    ],
  },
];

/**
 * Each command's end (whether it passed), for a command of another lane that waits on it. A
 * lane that stops early ends its remaining commands as not passed, so no lane waits forever.
 */
const ends = new Map<string, { promise: Promise<boolean>; settle: (passed: boolean) => void }>();
function endOf(command: string) {
  let end = ends.get(command);
  if (!end) {
    let settle!: (passed: boolean) => void;
    const promise = new Promise<boolean>((resolve) => (settle = resolve));
    end = { promise, settle };
    ends.set(command, end);
  }
  return end;
}

const commandOf = (entry: LaneCommand) => (typeof entry === "string" ? entry : entry.run);

const LOG_DIR = path.resolve(__dirname, "..", ".local", "test-lanes");

/** How many lines of a lane's end are shown when its output has no mocha or vitest failure list. */
const TAIL_LINES = 60;

interface LaneResult {
  name: string;
  failedCommand: string | null;
  ms: number;
  log: string;
  /** Each command's wall time, in words. */
  times: string[];
}

export async function runLane(lane: { name: string; commands: LaneCommand[] }): Promise<LaneResult> {
  mkdirSync(LOG_DIR, { recursive: true });
  const log = path.join(LOG_DIR, `${lane.name.replace(/[^a-z0-9]+/gi, "-")}.log`);
  const file = createWriteStream(log);
  const started = Date.now();
  let failedCommand: string | null = null;
  const times: string[] = [];
  for (const entry of lane.commands) {
    const command = commandOf(entry);
    if (typeof entry !== "string") {
      const waitStarted = Date.now();
      const passed = await endOf(entry.after).promise;
      const waited = Date.now() - waitStarted;
      if (waited >= 1000) times.push(`waiting for '${entry.after}': ${(waited / 60_000).toFixed(1)} min`);
      if (!passed) {
        file.write(`--> '${command}' was not started: '${entry.after}', which it waits for, did not pass\n`);
        failedCommand = command;
        break;
      }
    }
    const commandStarted = Date.now();
    const code = await new Promise<number>((resolve) => {
      const child = spawn(command, {
        shell: true,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, FORCE_COLOR: "0", E2E_DASHBOARD_DIST: E2E_DIST },
      });
      for (const stream of [child.stdout, child.stderr]) {
        createInterface({ input: stream }).on("line", (line) => {
          process.stdout.write(`[${lane.name}] ${line}\n`);
          file.write(`${line}\n`);
        });
      }
      child.on("close", (status) => resolve(status ?? 1));
    });
    times.push(`${command}: ${((Date.now() - commandStarted) / 60_000).toFixed(1)} min`);
    file.write(`--> ${command} exited with code ${code} after ${times.at(-1)!.split(": ").at(-1)}\n`);
    endOf(command).settle(code === 0);
    if (code !== 0) {
      failedCommand = command;
      break;
    }
  }
  // What this lane did not reach will not pass: the other lanes stop waiting for it.
  for (const entry of lane.commands) endOf(commandOf(entry)).settle(false);
  await new Promise<void>((resolve) => file.end(resolve));
  return { name: lane.name, failedCommand, ms: Date.now() - started, log, times };
}

/** The part of a failed lane's output worth reading: mocha's or vitest's failure list, else its last lines. */
export function failureExcerpt(output: string): string {
  const lines = output.split("\n");
  // Mocha's '  2 failing' heads its list; vitest's list is headed 'Failed Tests 2' between rules.
  const start = lines.findIndex((line) => /^\s*\d+ failing\b/.test(line) || /Failed Tests? \d+/.test(line));
  const from = start >= 0 ? start : Math.max(0, lines.length - TAIL_LINES);
  return lines.slice(from, from + 400).join("\n");
}

async function main(): Promise<void> {
  const results = await Promise.all(LANES.map(runLane));
  const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
  console.log("\n--> Lanes:");
  for (const r of results) {
    console.log(`    ${r.name}: ${r.failedCommand ? `FAILED in '${r.failedCommand}'` : "passed"} after ${minutes(r.ms)}`);
    for (const time of r.times) console.log(`      ${time}`);
  }
  const failed = results.filter((r) => r.failedCommand);
  for (const r of failed) {
    console.log(
      `\n--> ${r.name} failed in '${r.failedCommand}'; its failures (whole output: .local/test-lanes/${path.basename(r.log)}):\n`,
    );
    console.log(failureExcerpt(readFileSync(r.log, "utf8")));
  }
  process.exitCode = failed.length > 0 ? 1 : 0;
}

if (require.main === module) void main();
