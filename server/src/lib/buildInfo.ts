import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..", "..");

/**
 * What this server is, for /monitoring: the package's version and the source's commit
 * (USDX_COMMIT where the deployment sets it, else git's when the server runs from a checkout, else
 * unknown). Read once, at start.
 */
/** The package's version, from package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
}

export function readBuildInfo(): { version: string; commit: string | null } {
  const version = packageVersion();
  let commit: string | null = process.env.USDX_COMMIT || null;
  if (!commit) {
    try {
      commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 2000 }).trim() || null;
    } catch {
      commit = null; // not a checkout (a copied release), or no git
    }
  }
  return { version, commit };
}
