import type { Stack } from "../../server/test/stack";

/**
 * The API server's settings for a bench on its own stack: an in-memory index, no background polling
 * (the bench syncs the indexer itself, so timings are its own) and no CSV rate limit in the way.
 */
export function benchServerEnv(stack: Stack): Record<string, string> {
  return {
    NETWORK: "localhost",
    RPC_URL: stack.rpcUrl,
    DEPLOYMENTS_DIR: stack.deploymentsDir,
    PGLITE_DIR: "memory://",
    FIREBASE_AUTH_EMULATOR_HOST: stack.emulatorHost,
    SERVER_PORT: "0",
    INDEXER_POLL_MS: "60000",
    RATE_LIMIT_CSV_PER_MINUTE: "100000",
    LOG_LEVEL: "silent",
  };
}
