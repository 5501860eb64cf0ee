import { startStack, Stack } from "./stack";
import { ON_POSTGRES, startTestPostgres, TestPostgres } from "./postgres";

type Suite = { usdxStack?: Stack; usdxPostgres?: TestPostgres };

// Mocha root hooks: one Hardhat node and one Auth emulator for the whole server suite, and in the
// PostgreSQL pass (USDX_TEST_DATABASE=postgres) one PostgreSQL server.
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(180_000);
    const suite = globalThis as Suite;
    const [stack, postgres] = await Promise.all([startStack(), ON_POSTGRES ? startTestPostgres() : undefined]);
    suite.usdxStack = stack;
    suite.usdxPostgres = postgres;
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(30_000);
    const suite = globalThis as Suite;
    suite.usdxPostgres?.stop();
    await suite.usdxStack?.stop();
  },
};
