import { startStack, Stack } from "./stack";
import { ON_POSTGRES, postgresBinaries, startTestPostgres, TestPostgres } from "./postgres";
import { copyMigratedMemoryDatabases } from "../src/db/client";

type Suite = { usdxStack?: Stack; usdxPostgres?: TestPostgres };

// Mocha root hooks: one Hardhat node and one Auth emulator for the whole server suite, and in the
// PostgreSQL pass (USDX_TEST_DATABASE=postgres) one PostgreSQL server. On PGlite, one in-memory
// database is migrated meanwhile and every test server's in-memory database starts as a copy of it:
// PGlite's initdb was most of each server's start (server/src/db/client.ts).
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(180_000);
    const suite = globalThis as Suite;
    if (ON_POSTGRES) postgresBinaries(); // no PostgreSQL: say so now, not after the stack has started
    const [stack, postgres, template] = await Promise.allSettled([
      startStack(),
      ON_POSTGRES ? startTestPostgres() : undefined,
      ON_POSTGRES ? undefined : copyMigratedMemoryDatabases(),
    ]);
    // Whatever started is kept for afterAll to stop, even when the other part failed.
    if (stack.status === "fulfilled") suite.usdxStack = stack.value;
    if (postgres.status === "fulfilled") suite.usdxPostgres = postgres.value;
    for (const started of [stack, postgres, template]) if (started.status === "rejected") throw started.reason;
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(30_000);
    const suite = globalThis as Suite;
    suite.usdxPostgres?.stop();
    await suite.usdxStack?.stop();
  },
};
