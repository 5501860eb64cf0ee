/**
 * Which Node.js the project's scripts run on (scripts/node-version.js, which `npm start` and
 * `npm test` run first): 22 from 22.19, and 24; anything older is stopped with one sentence that
 * names the version to install.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import path from "node:path";

// Plain JavaScript, so that an old Node reads it: required, not imported.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nodeVersion = require("../scripts/node-version.js") as {
  isSupported(version: string): boolean;
  refusal(version: string, why?: string): string;
  INSTALL: string;
};
const SCRIPT = path.resolve(__dirname, "..", "scripts", "node-version.js");

describe("The Node.js the scripts run on (scripts/node-version.js)", () => {
  it("runs on Node.js 22 from 22.19, on 24 and on later lines", () => {
    for (const version of ["v22.19.0", "22.20.5", "v24.21.0", "v26.0.0"]) expect(nodeVersion.isSupported(version), version).to.equal(true);
  });

  it("does not run on Node.js 20 (past its end of life) or on a 22 older than 22.19", () => {
    for (const version of ["v20.20.2", "v18.19.0", "v22.18.0", "v22.12.0"])
      expect(nodeVersion.isSupported(version), version).to.equal(false);
  });

  it("refuses with one sentence that names the Node.js it was given and the one to install", () => {
    const sentence = nodeVersion.refusal("v20.20.2");
    expect(sentence).to.equal(
      "USDX Dashboard runs on Node.js 22 (22.19 or later) and 24, not on Node.js 20.20.2: install Node.js 24 LTS and run npm install again.",
    );
    expect(sentence.split("\n")).to.have.length(1);
  });

  it("lets the Node.js these tests run on through, saying nothing, and names it with --print", () => {
    const quiet = spawnSync(process.execPath, [SCRIPT], { encoding: "utf8" });
    expect(quiet.status).to.equal(0);
    expect(quiet.stdout + quiet.stderr).to.equal("");
    const printed = spawnSync(process.execPath, [SCRIPT, "--print"], { encoding: "utf8" });
    expect(printed.stdout.trim()).to.equal(`Node.js ${process.versions.node} (${process.execPath})`);
  });
});
