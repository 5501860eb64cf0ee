import type { Browser } from "playwright-core";
import { launchChromium, setE2E, type E2E } from "../hooks";

/**
 * Root hooks of the public-network browser suite (`npm run test:e2e:network`): one headless
 * Chromium for the run. Unlike the main suite, each file starts the stack it is about (a fork of a
 * stand-in Sepolia, a Sepolia-shaped rehearsal) in its own `before`, and hands it to the shared
 * helpers of e2e/browser.ts with `useStack`.
 */
let browser: Browser | null = null;

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(60_000);
    browser = await launchChromium();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(30_000);
    await browser?.close();
  },
};

export interface NetworkStack extends Omit<E2E, "browser"> {
  stop(): Promise<void>;
}

/**
 * Registers `before`/`after` hooks that start `start()`'s stack for the enclosing describe and make
 * it the one e2e/browser.ts's helpers (openBrowser, signUp, url, ...) work against. Call it inside
 * the file's describe: at a file's top level its hooks would be root hooks, run around every file.
 */
export function useStack(start: () => Promise<NetworkStack>, timeoutMs = 300_000): () => NetworkStack {
  let stack: NetworkStack | null = null;
  before(async function () {
    this.timeout(timeoutMs);
    if (!browser) throw new Error("Chromium is not running: run this suite with `npm run test:e2e:network`.");
    stack = await start();
    setE2E({ ...stack, browser });
  });
  after(async function () {
    this.timeout(60_000);
    setE2E(null);
    await stack?.stop();
  });
  return () => {
    if (!stack) throw new Error("The stack did not start.");
    return stack;
  };
}
