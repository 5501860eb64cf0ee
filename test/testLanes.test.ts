import { expect } from "chai";
import { readFileSync } from "node:fs";
import { failureExcerpt, runLane } from "../scripts/test-lanes";

describe("scripts/test-lanes.ts: a failed lane's failures, printed again at the end", () => {
  it("starts at mocha's 'N failing' list", () => {
    const output = [
      "  ✔ one",
      "  ✔ two",
      "",
      "  2 passing (3s)",
      "  1 failing",
      "",
      "  1) a test:",
      "     AssertionError: expected 1 to equal 2",
    ].join("\n");
    expect(failureExcerpt(output)).to.equal(["  1 failing", "", "  1) a test:", "     AssertionError: expected 1 to equal 2"].join("\n"));
  });

  it("starts at vitest's 'Failed Tests N' rule", () => {
    const output = [
      " ✓ a.test.tsx (3 tests)",
      " × b.test.tsx (1 test | 1 failed)",
      "⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯",
      " FAIL  b.test.tsx > shows it",
    ].join("\n");
    expect(failureExcerpt(output)).to.equal(["⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯", " FAIL  b.test.tsx > shows it"].join("\n"));
  });

  it("falls back to the last 60 lines when neither list is there (a suite that could not start)", () => {
    const output = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
    const excerpt = failureExcerpt(output).split("\n");
    expect(excerpt).to.have.length(60);
    expect(excerpt[0]).to.equal("line 40");
    expect(excerpt.at(-1)).to.equal("line 99");
  });
});

describe("scripts/test-lanes.ts: a command that waits for the other lane's", () => {
  it("starts once that command has passed", async () => {
    const [waiting] = await Promise.all([
      runLane({ name: "lanes-test-waits", commands: [{ run: "echo after", after: "sleep 1 && echo first" }] }),
      runLane({ name: "lanes-test-first", commands: ["sleep 1 && echo first"] }),
    ]);
    expect(waiting.failedCommand).to.equal(null);
    expect(waiting.times[0]).to.match(/^waiting for 'sleep 1 && echo first': \d+\.\d min$/);
    expect(readFileSync(waiting.log, "utf8")).to.contain("after\n");
  });

  it("is not started when the other lane stops before that command passes, and neither lane waits forever", async () => {
    const [waiting, stopped] = await Promise.all([
      runLane({ name: "lanes-test-blocked", commands: [{ run: "echo never-started", after: "echo unreached" }] }),
      runLane({ name: "lanes-test-stops", commands: ["exit 3", "echo unreached"] }),
    ]);
    expect(stopped.failedCommand).to.equal("exit 3");
    expect(waiting.failedCommand).to.equal("echo never-started");
    const log = readFileSync(waiting.log, "utf8");
    expect(log).to.contain("'echo never-started' was not started: 'echo unreached', which it waits for, did not pass");
    expect(log).not.to.match(/^never-started$/m); // its echo never ran
  });
});
