import { expect } from "chai";
import { failureExcerpt } from "../scripts/test-lanes";

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
