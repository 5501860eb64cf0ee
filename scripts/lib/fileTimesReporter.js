// @ts-check
/**
 * Mocha's spec reporter, plus where the time went: each test file's wall time (from its first
 * suite's start to its last suite's end, hooks included), the slowest 20 printed at the end and all
 * of them written to .local/test-times/<name>.json (name: MOCHA_TIMES_NAME, else "mocha"). Issue 32
 * asks for the slowest files of each lane; scripts/test-times.ts merges the lanes' files.
 */
const { mkdirSync, writeFileSync } = require("node:fs");
const path = require("node:path");
const Mocha = require("mocha");

const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_RUN_END, EVENT_TEST_PASS, EVENT_TEST_FAIL } = Mocha.Runner.constants;
const ROOT = path.resolve(__dirname, "..", "..");

class FileTimesReporter extends Mocha.reporters.Spec {
  /** @param {Mocha.Runner} runner @param {Mocha.MochaOptions} options */
  constructor(runner, options) {
    super(runner, options);
    /** @type {Map<string, { start: number, end: number, tests: number }>} */
    const files = new Map();
    const entry = (/** @type {string | undefined} */ file) => {
      const key = file ? path.relative(ROOT, file) : "(no file)";
      let e = files.get(key);
      if (!e) files.set(key, (e = { start: Date.now(), end: Date.now(), tests: 0 }));
      return e;
    };
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (suite.file) entry(suite.file);
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      if (suite.file) entry(suite.file).end = Date.now();
    });
    for (const event of [EVENT_TEST_PASS, EVENT_TEST_FAIL]) runner.on(event, (test) => void entry(test.file).tests++);
    runner.once(EVENT_RUN_END, () => {
      const rows = [...files].map(([file, e]) => ({ file, seconds: (e.end - e.start) / 1000, tests: e.tests }));
      rows.sort((a, b) => b.seconds - a.seconds);
      const dir = path.join(ROOT, ".local", "test-times");
      mkdirSync(dir, { recursive: true });
      const name = options.reporterOptions?.name || process.env.MOCHA_TIMES_NAME || "mocha";
      writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(rows, null, 2));
      const total = rows.reduce((s, r) => s + r.seconds, 0);
      console.log(`\n  The slowest test files (of ${rows.length}, ${total.toFixed(0)} s in all):`);
      for (const r of rows.slice(0, 20))
        console.log(`  ${r.seconds.toFixed(1).padStart(7)} s  ${String(r.tests).padStart(4)} tests  ${r.file}`);
    });
  }
}

module.exports = FileTimesReporter;
