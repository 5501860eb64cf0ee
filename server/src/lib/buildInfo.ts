import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..", "..");

/** The package's version, from package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/**
 * What this server is, for /monitoring: the package's version and the source's commit (`commit`,
 * USDX_COMMIT where the deployment sets it, else git's when the server runs from a checkout, else
 * unknown). Read once, at start.
 */
export function readBuildInfo(deployedCommit: string | null): { version: string; commit: string | null } {
  const version = packageVersion();
  let commit = deployedCommit;
  if (!commit) {
    try {
      commit =
        execFileSync("git", ["rev-parse", "--short", "HEAD"], {
          cwd: ROOT,
          encoding: "utf8",
          stdio: ["ignore", "pipe", "ignore"],
          timeout: 2000,
        }).trim() || null;
    } catch {
      commit = null; // not a checkout (a copied release), or no git
    }
  }
  return { version, commit };
}
