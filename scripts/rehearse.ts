/**
 * `npm run rehearse:sepolia`: the product as it runs on Sepolia, offline, for a person to try. A
 * stand-in Sepolia (chain 11155111, a block every 12 s) behind a provider proxy, USDX deployed with
 * `npm run deploy:sepolia`, the server with NETWORK=sepolia serving the built dashboard. The same
 * stack the browser test e2e/network/rehearsal.e2e.ts drives (scripts/lib/rehearsal.ts), at
 * Sepolia's pace. Ctrl-C stops everything.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { HDNodeWallet } from "ethers";
import { DEFAULT_SERVER_PORT, SEPOLIA } from "@common/networks";
import { LOCAL_DEV_MNEMONIC, SEEDED_ACCOUNTS, localAccountPath } from "@common/seedAccounts";
import { SEPOLIA_BLOCK_MS, startRehearsal } from "./lib/rehearsal";

const ROOT = path.resolve(__dirname, "..");
const port = (name: string, fallback: number) => Number(process.env[name] || fallback);

async function main(): Promise<void> {
  const t0 = Date.now();
  const blockMs = port("REHEARSAL_BLOCK_MS", SEPOLIA_BLOCK_MS);
  console.log("Building the dashboard...");
  const dist = mkdtempSync(path.join(tmpdir(), "usdx-rehearsal-dist-"));
  execFileSync(
    path.join(ROOT, "node_modules", ".bin", "vite"),
    ["build", "--config", "frontend/vite.config.mts", "--logLevel", "error", "--outDir", dist, "--emptyOutDir"],
    {
      cwd: ROOT,
      stdio: "inherit",
    },
  );
  const rehearsal = await startRehearsal({
    blockMs,
    dashboardDist: dist,
    serverPort: port("SERVER_PORT", DEFAULT_SERVER_PORT),
    publicRpcPort: port("REHEARSAL_RPC_PORT", 8546),
    serverEnv: { LOG_LEVEL: process.env.LOG_LEVEL || "warn" },
    log: console.log,
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping...");
    await rehearsal.stop();
    rmSync(dist, { recursive: true, force: true });
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());

  const holders = SEEDED_ACCOUNTS.filter((a) => a.funds && !a.blocked && a.roles.length === 0);
  const keys = holders.map((a) => {
    const wallet = HDNodeWallet.fromPhrase(LOCAL_DEV_MNEMONIC, undefined, localAccountPath(a.index));
    return `    ${a.name.padEnd(6)} ${wallet.address}  key ${wallet.privateKey}`;
  });
  console.log(`
Ready in ${((Date.now() - t0) / 1000).toFixed(1)} s: a Sepolia-shaped rehearsal, nothing of it on the real Sepolia.
  Dashboard        ${rehearsal.url}   (sign up with any email and password)
  Chain            a stand-in Sepolia, chain ${SEPOLIA.chainId}, a block every ${blockMs / 1000} s
  Wallet RPC       ${rehearsal.browserProxy.url}   (what the page reads through: a hosted endpoint's limits and latency)
  Server's RPC     ${rehearsal.serverProxy.url}   (range limits, latency, now and then a 429 or a 5xx)
  USDX             ${rehearsal.manifest.proxy}   (blocks final 5 deep, as on Sepolia)
To send from the dashboard, point a browser wallet at it: set the Sepolia network's RPC URL to
${rehearsal.browserProxy.url} (or add a network with that URL and chain id ${SEPOLIA.chainId}), then import a
seeded holder. These are Hardhat's public test keys, known to everyone: never fund them on a real network.
${keys.join("\n")}
Links go to Sepolia's explorer, which knows nothing of this chain. Press Ctrl-C to stop.`);
}

main().catch((error: unknown) => {
  console.error(`\n${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
