import { startStack, Stack } from "./stack";

// Mocha root hooks: one Hardhat node and one Auth emulator for the whole server suite.
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(180_000);
    (globalThis as { usdxStack?: Stack }).usdxStack = await startStack();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(30_000);
    await (globalThis as { usdxStack?: Stack }).usdxStack?.stop();
  },
};
