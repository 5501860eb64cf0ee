import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migratedDump } from "../src/db/client";
import { testPostgres } from "./helpers";

/**
 * A new PGlite data directory on disk for a test that starts servers on one (to restart or kill
 * them), already holding the migrated database: a copy of one directory made once per test run
 * from the migrated database the root hooks dumped (memoryDatabases.ts). PGlite makes an empty
 * directory with its initdb, about 4 s of CPU in whichever process opens it first (often a server
 * process a test started); a copy costs about 0.1 s. What a server does with a directory it finds
 * migrated is what it does on every restart, which these tests are about. A test of a directory
 * PGlite itself makes and migrates (database.test.ts) keeps an empty one.
 *
 * In the PostgreSQL pass the directory only names a database (postgres.ts), so it stays empty.
 * The caller removes it.
 */
export async function migratedDataDir(prefix: string): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  if (!testPostgres()) cpSync(await (template ??= makeTemplate()), dir, { recursive: true });
  return dir;
}

let template: Promise<string> | undefined;

async function makeTemplate(): Promise<string> {
  const { PGlite } = await import("@electric-sql/pglite");
  const dir = mkdtempSync(path.join(tmpdir(), "usdx-migrated-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  // Closed cleanly, so every copy opens as a directory a stopped server left.
  const client = await PGlite.create(dir, { loadDataDir: await migratedDump() });
  await client.close();
  return dir;
}
