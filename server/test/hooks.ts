import { startStack, Stack } from "./stack";
import { ON_POSTGRES, postgresBinaries, startTestPostgres, TestPostgres } from "./postgres";
import { reuseMemoryDatabases } from "../src/db/client";

type Suite = { usdxStack?: Stack; usdxPostgres?: TestPostgres };

// Mocha root hooks: one Hardhat node and one Auth emulator for the whole server suite, and in the
// PostgreSQL pass (USDX_TEST_DATABASE=postgres) one PostgreSQL server. On PGlite, one in-memory
// database is migrated meanwhile; every test server's in-memory database is then an emptied one a
// closed server left, or a copy of that one (server/src/db/memoryDatabases.ts): PGlite's initdb,
// and even a copy, were most of each server's start.
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(180_000);
    const suite = globalThis as Suite;
    if (ON_POSTGRES) postgresBinaries(); // no PostgreSQL: say so now, not after the stack has started
    const [stack, postgres, template] = await Promise.allSettled([
      startStack(),
      ON_POSTGRES ? startTestPostgres() : undefined,
      ON_POSTGRES ? undefined : reuseMemoryDatabases(),
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
