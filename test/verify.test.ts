/**
 * The README's Sepolia recipe publishes the contracts' source with `npx hardhat verify --network
 * sepolia <address>`. Etherscan itself is on the internet, which these tests never reach: they check
 * that hardhat-verify is wired to Sepolia and takes its key from ETHERSCAN_API_KEY.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { QUIET } from "../scripts/lib/stack/processes";

const ROOT = path.resolve(__dirname, "..");
const HARDHAT = path.join(ROOT, "node_modules", ".bin", "hardhat");

function hardhat(args: string[], env: Record<string, string>): string {
  const result = spawnSync(HARDHAT, args, { cwd: ROOT, env: { ...process.env, ...QUIET, ...env }, encoding: "utf8", timeout: 60_000 });
  return `${result.stdout}${result.stderr}`;
}

describe("hardhat verify (the README's Sepolia recipe)", () => {
  it("knows Sepolia (chain 11155111) among the explorers it verifies on", () => {
    expect(hardhat(["verify", "--list-networks"], {})).to.match(/sepolia\s*│\s*11155111/);
  });

  it("takes its Etherscan key from ETHERSCAN_API_KEY", () => {
    const script = "require('hardhat').config.etherscan.apiKey";
    const read = (key: string) =>
      spawnSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", `process.stdout.write(JSON.stringify(${script}))`], {
        cwd: ROOT,
        env: { ...process.env, ...QUIET, ETHERSCAN_API_KEY: key },
        encoding: "utf8",
        timeout: 60_000,
      });
    expect(read("an-etherscan-key").stdout).to.equal(JSON.stringify("an-etherscan-key"));
    expect(read("").stdout).to.equal(JSON.stringify(""));
  });
});
