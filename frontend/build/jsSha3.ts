import { createRequire } from "node:module";

/**
 * js-sha3 for the build-time render (./prerenderPages.ts): a CommonJS package whose exports Node
 * cannot list, so Node refuses common/addresses.ts's named import of it outside the bundler. The
 * same function, from Node's require.
 */
export const { keccak256 } = createRequire(import.meta.url)("js-sha3") as typeof import("js-sha3");
