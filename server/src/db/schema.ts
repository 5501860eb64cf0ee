import { bigint, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Every event of USDX and BatchPayments since the deployment block, decoded. Addresses in the
 * lookup columns are lower-case; `args` keeps checksummed addresses and amounts as decimal strings.
 */
export const chainEvents = pgTable(
  "chain_events",
  {
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
    logIndex: integer("log_index").notNull(),
    blockHash: text("block_hash").notNull(),
    /** Unix seconds. */
    blockTime: bigint("block_time", { mode: "number" }).notNull(),
    transactionHash: text("transaction_hash").notNull(),
    contract: text("contract").notNull(),
    eventName: text("event_name").notNull(),
    signature: text("signature").notNull(),
    args: jsonb("args").notNull().$type<Record<string, string | boolean>>(),
    /** Transfer only: sender and receiver (the zero address for mint and burn). */
    fromAddress: text("from_address"),
    toAddress: text("to_address"),
    /** Role and blocklist events: the account concerned; BatchPaid: the payer. */
    account: text("account"),
  },
  // Each lookup's index ends in (block, log index), so a page is read in order and stops at its limit.
  (t) => [
    primaryKey({ columns: [t.blockNumber, t.logIndex] }),
    index("chain_events_name_order").on(t.eventName, t.blockNumber, t.logIndex),
    index("chain_events_from_order").on(t.fromAddress, t.blockNumber, t.logIndex),
    index("chain_events_to_order").on(t.toAddress, t.blockNumber, t.logIndex),
    index("chain_events_account").on(t.account),
    index("chain_events_tx").on(t.transactionHash),
  ],
);

/** Hashes of blocks the indexer has seen (those with events, and each checkpoint): how a reorg is found. */
export const indexedBlocks = pgTable("indexed_blocks", {
  blockNumber: bigint("block_number", { mode: "number" }).primaryKey(),
  blockHash: text("block_hash").notNull(),
  blockTime: bigint("block_time", { mode: "number" }).notNull(),
});

/** Where the indexer is, and which deployment it indexes (a new deployment starts it over). */
export const indexerState = pgTable("indexer_state", {
  id: text("id").primaryKey(),
  chainId: integer("chain_id").notNull(),
  proxy: text("proxy").notNull(),
  deploymentBlockHash: text("deployment_block_hash").notNull(),
  checkpointBlock: bigint("checkpoint_block", { mode: "number" }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Sign-In with Ethereum nonces: each is issued once, expires soon, and signs in once. */
export const siweNonces = pgTable("siwe_nonces", {
  nonce: text("nonce").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  usedBy: text("used_by"),
});

/** Admin actions requested through the dashboard, with who asked. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    uid: text("uid").notNull(),
    email: text("email"),
    wallet: text("wallet"),
    action: text("action").notNull(),
    details: jsonb("details").notNull().$type<Record<string, unknown>>(),
  },
  (t) => [index("audit_log_created").on(t.createdAt)],
);
