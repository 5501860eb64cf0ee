import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..", "..");

/** The package's version, from package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/**
 * The checkout's commit, asked of git once per process: the code running is the code that was
 * checked out when it started, and every app a process makes (the server test suite makes hundreds)
 * would otherwise start a git process of its own.
 */
let checkoutCommit: string | null | undefined;

function gitCommit(): string | null {
  if (checkoutCommit !== undefined) return checkoutCommit;
  try {
    checkoutCommit =
      execFileSync("git", ["rev-parse", "--short", "HEAD"], {
        cwd: ROOT,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
        timeout: 2000,
      }).trim() || null;
  } catch {
    checkoutCommit = null; // not a checkout (a copied release), or no git
  }
  return checkoutCommit;
}

/**
 * What this server is, for /monitoring: the package's version and the source's commit (`commit`,
 * USDX_COMMIT where the deployment sets it, else git's when the server runs from a checkout, else
 * unknown). Read once, at start.
 */
export function readBuildInfo(deployedCommit: string | null): { version: string; commit: string | null } {
  return { version: packageVersion(), commit: deployedCommit || gitCommit() };
}
