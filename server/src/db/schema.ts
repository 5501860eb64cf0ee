import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

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
    // The batch watcher finds a chunk's BatchPaid by its payment reference.
    index("chain_events_payment_ref")
      .on(sql`(${t.args}->>'paymentRef')`)
      .where(sql`${t.eventName} = 'BatchPaid'`),
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

// ---------------------------------------------------------------- contacts

/** A user's address book. Each user sees only their own rows; an address appears once per user. */
export const contacts = pgTable(
  "contacts",
  {
    id: serial("id").primaryKey(),
    uid: text("uid").notNull(),
    name: text("name").notNull(),
    /** Checksummed. */
    address: text("address").notNull(),
    notes: text("notes"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("contacts_user_address").on(t.uid, sql`lower(${t.address})`), index("contacts_user_created").on(t.uid, t.createdAt)],
);

// ---------------------------------------------------------------- batch payments

/**
 * A batch payment a user started: its recipients are paid in chunks, each one transaction from the
 * payer's wallet through BatchPayments. status: processing, completed or failed.
 */
export const batchJobs = pgTable(
  "batch_jobs",
  {
    id: text("id").primaryKey(),
    uid: text("uid").notNull(),
    /** The wallet that pays (checksummed); null until the first chunk's BatchPaid names it. */
    payer: text("payer"),
    /** The payer is a Safe: its chunks are paid by Safe proposals (MultiSend of approve and pay), not reported transactions. */
    payerIsSafe: boolean("payer_is_safe").notNull().default(false),
    status: text("status").notNull(),
    recipientCount: integer("recipient_count").notNull(),
    /** Base units, as a decimal string. */
    totalAmount: text("total_amount").notNull(),
    chunkCount: integer("chunk_count").notNull(),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [index("batch_jobs_user_created").on(t.uid, t.createdAt), index("batch_jobs_status").on(t.status)],
);

/** One transaction's worth of a job. status: pending (no transaction yet), submitted, confirmed, failed. */
export const batchChunks = pgTable(
  "batch_chunks",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => batchJobs.id, { onDelete: "cascade" }),
    index: integer("chunk_index").notNull(),
    /** bytes32 paymentRef the chunk's pay call carries; BatchPaid repeats it. */
    reference: text("reference").notNull(),
    recipientCount: integer("recipient_count").notNull(),
    totalAmount: text("total_amount").notNull(),
    status: text("status").notNull(),
    txHash: text("tx_hash"),
    blockNumber: bigint("block_number", { mode: "number" }),
    error: text("error"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.index] }),
    uniqueIndex("batch_chunks_reference").on(t.reference),
    index("batch_chunks_status").on(t.status),
  ],
);

/** Each row of a job, in CSV order. status: pending, paid, failed. */
export const batchRecipients = pgTable(
  "batch_recipients",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => batchJobs.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    chunkIndex: integer("chunk_index").notNull(),
    name: text("name").notNull(),
    /** Checksummed. */
    address: text("address").notNull(),
    /** Base units, as a decimal string. */
    amount: text("amount").notNull(),
    status: text("status").notNull(),
    txHash: text("tx_hash"),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.position] }), index("batch_recipients_chunk").on(t.jobId, t.chunkIndex)],
);

// ---------------------------------------------------------------- mock bank (clearly mock)

/** A mock bank account: pending, then verified a few seconds later. Only the last four digits are kept. */
export const bankAccounts = pgTable(
  "bank_accounts",
  {
    id: serial("id").primaryKey(),
    uid: text("uid").notNull(),
    name: text("name").notNull(),
    /** checking or savings. */
    type: text("type").notNull(),
    lastFour: text("last_four").notNull(),
    status: text("status").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When it turns verified: the timer is a timestamp, so it survives a restart. */
    verifyAt: timestamp("verify_at", { withTimezone: true }).notNull(),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
  },
  (t) => [index("bank_accounts_user").on(t.uid), index("bank_accounts_status").on(t.status, t.verifyAt)],
);

/** A user's wallets for the mock bank; one is primary; an address appears once per user. */
export const bankWallets = pgTable(
  "bank_wallets",
  {
    id: serial("id").primaryKey(),
    uid: text("uid").notNull(),
    name: text("name").notNull(),
    /** Checksummed. */
    address: text("address").notNull(),
    isPrimary: boolean("is_primary").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the user proved they control the address (null: not proved; the test faucet will not mint to it). */
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    /** How: 'sign-in' (the user's own SIWE wallet) or 'signature' (a signed challenge). */
    verifiedBy: text("verified_by"),
  },
  (t) => [uniqueIndex("bank_wallets_user_address").on(t.uid, sql`lower(${t.address})`), index("bank_wallets_user").on(t.uid)],
);

/**
 * A challenge a user signs with a wallet to prove they control it: issued by the server for one user
 * and one address, single-use, expiring soon. The message is stored, so the signature is checked
 * against exactly what was issued.
 */
export const bankWalletChallenges = pgTable(
  "bank_wallet_challenges",
  {
    nonce: text("nonce").primaryKey(),
    uid: text("uid").notNull(),
    /** Checksummed. */
    address: text("address").notNull(),
    message: text("message").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("bank_wallet_challenges_expires").on(t.expiresAt)],
);

/**
 * A mock deposit: pending, processing, then completed by a mint from the server's minter key, or
 * failed with the mint's error. The signed mint transaction is stored before it is sent, so a
 * restart re-sends the same transaction (same nonce) rather than minting twice.
 */
export const deposits = pgTable(
  "deposits",
  {
    id: serial("id").primaryKey(),
    uid: text("uid").notNull(),
    bankAccountId: integer("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id),
    /** Checksummed: where the USDX is minted. */
    walletAddress: text("wallet_address").notNull(),
    /** Base units, as a decimal string. */
    amount: text("amount").notNull(),
    status: text("status").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    processingAt: timestamp("processing_at", { withTimezone: true }).notNull(),
    completeAt: timestamp("complete_at", { withTimezone: true }).notNull(),
    signedTx: text("signed_tx"),
    txHash: text("tx_hash"),
    /** When its mint was signed: the worker serves first the user whose last mint is oldest. */
    signedAt: timestamp("signed_at", { withTimezone: true }),
    error: text("error"),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    /** The client address that asked for it (as the rate limits key it): the faucet's per-address daily cap counts these. Null before issue 29. */
    clientIp: text("client_ip"),
  },
  (t) => [
    index("deposits_user_created").on(t.uid, t.createdAt),
    index("deposits_status").on(t.status),
    // The faucet's daily totals (all users) and the worker's fair order (each user's last mint).
    index("deposits_created").on(t.createdAt),
    index("deposits_user_signed").on(t.uid, t.signedAt),
  ],
);

/**
 * Requests counted against a rate limit, one row per limit and client (`key`, e.g.
 * "batch-reports:uid:..."), in a fixed window that ends at `reset_at`. In the database so that every
 * replica counts into the same window (services/operations/rateLimitStore.ts); expired rows are swept.
 */
export const rateLimitHits = pgTable(
  "rate_limit_hits",
  {
    key: text("key").primaryKey(),
    hits: integer("hits").notNull(),
    resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("rate_limit_hits_reset").on(t.resetAt)],
);

// ---------------------------------------------------------------- operators' alerts (services/alerts/)

/**
 * An admin's alert rule: a kind of USDX event (common/alerts.ts), an optional threshold, and the
 * webhook each matching event is delivered to, signed with the rule's secret. A rule alerts on
 * events in blocks after start_block: the index's checkpoint when it was made or last turned on,
 * so a new rule never replays history.
 */
export const alertRules = pgTable("alert_rules", {
  id: serial("id").primaryKey(),
  kind: text("kind").notNull(),
  /** Base units (18 decimals) as a decimal string: an amount of USDX, or a step of the multiplier; null: any. */
  threshold: text("threshold"),
  /** multiplier only: alert on a change of more than this many hundredths of a percent of every balance, up or down; null: any. */
  stepPercent: integer("step_percent"),
  webhookUrl: text("webhook_url").notNull(),
  /** The HMAC key. Kept as it is: the server must sign with it (see docs/SECURITY.md, "Alerts"). */
  secret: text("secret").notNull(),
  enabled: boolean("enabled").notNull().default(true),
  startBlock: bigint("start_block", { mode: "number" }).notNull(),
  createdBy: text("created_by").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One rule's delivery of one event, of one step of a Safe proposal, or a 'Send test'. The unique
 * keys on the rule and the event (block, log index and block hash) or the step (event_key) make a
 * rule deliver each at most once, however often it is read. status: pending, delivered, failed, cancelled.
 */
export const alertDeliveries = pgTable(
  "alert_deliveries",
  {
    id: serial("id").primaryKey(),
    /** What the receiver sees (X-USDX-Delivery and the body's deliveryId): the same on every attempt. */
    publicId: text("public_id").notNull(),
    ruleId: integer("rule_id")
      .notNull()
      .references(() => alertRules.id, { onDelete: "cascade" }),
    test: boolean("test").notNull().default(false),
    /** The event (null for a test). */
    blockNumber: bigint("block_number", { mode: "number" }),
    logIndex: integer("log_index"),
    blockHash: text("block_hash"),
    /** The body without its sentAt, which each attempt adds. */
    payload: jsonb("payload").notNull().$type<Record<string, unknown>>(),
    status: text("status").notNull(),
    /** Attempts begun; counted before each is sent, so a crash mid-attempt still counts it. */
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    note: text("note"),
    /**
     * A Safe proposal's step (services/alerts/safeEvents.ts), not an indexed event:
     * `safe:<safeTxHash>:created`, `safe:<safeTxHash>:approved:<owner>` or `safe:<safeTxHash>:executed`;
     * null for an indexed event or a test. Unique per rule, so each step is delivered once per rule.
     */
    eventKey: text("event_key"),
  },
  (t) => [
    uniqueIndex("alert_deliveries_public_id").on(t.publicId),
    uniqueIndex("alert_deliveries_rule_event").on(t.ruleId, t.blockNumber, t.logIndex, t.blockHash),
    uniqueIndex("alert_deliveries_rule_key").on(t.ruleId, t.eventKey),
    // The deliverer's due list, and the log per rule, newest first.
    index("alert_deliveries_due").on(t.status, t.nextAttemptAt),
    index("alert_deliveries_rule").on(t.ruleId, t.id),
  ],
);

/** Each attempt of a delivery and the receiver's answer (its start only). */
export const alertAttempts = pgTable(
  "alert_attempts",
  {
    id: serial("id").primaryKey(),
    deliveryId: integer("delivery_id")
      .notNull()
      .references(() => alertDeliveries.id, { onDelete: "cascade" }),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    excerpt: text("excerpt"),
    durationMs: integer("duration_ms").notNull(),
  },
  (t) => [index("alert_attempts_delivery").on(t.deliveryId, t.id)],
);

/**
 * Where the alert matcher is in the index: the last event it matched (its block hash tells a
 * rewound index), and the deployment the index belonged to then. One row.
 */
export const alertState = pgTable("alert_state", {
  id: text("id").primaryKey(),
  cursorBlock: bigint("cursor_block", { mode: "number" }),
  cursorLog: integer("cursor_log"),
  cursorHash: text("cursor_hash"),
  deploymentBlockHash: text("deployment_block_hash"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------- Safe proposals (services/safes/)

/**
 * A write proposed to a Safe that holds a USDX role: the SafeTx its owners sign (EIP-712 over the
 * chain id and the Safe), stored with the proposer's signature (its first approval). The server
 * holds no key: an owner's wallet executes it. state: pending, executed, failed (the Safe used the
 * nonce but the call reverted) or replaced (another transaction used the nonce); services/safes/
 * reconcile.ts moves it on from the Safe's nonce and its ExecutionSuccess/ExecutionFailure logs.
 */
export const safeProposals = pgTable(
  "safe_proposals",
  {
    /** The SafeTx hash (lower-case): it covers the chain id and the Safe, so it is unique across both. */
    safeTxHash: text("safe_tx_hash").primaryKey(),
    chainId: integer("chain_id").notNull(),
    /** Lower-case. */
    safe: text("safe").notNull(),
    nonce: bigint("nonce", { mode: "number" }).notNull(),
    /** The SafeTx's fields as signed: addresses checksummed, numbers as decimal strings, data lower-case. */
    to: text("to_address").notNull(),
    value: text("value").notNull(),
    data: text("data").notNull(),
    operation: integer("operation").notNull(),
    safeTxGas: text("safe_tx_gas").notNull(),
    baseGas: text("base_gas").notNull(),
    gasPrice: text("gas_price").notNull(),
    gasToken: text("gas_token").notNull(),
    refundReceiver: text("refund_receiver").notNull(),
    /** What it does, in words, as of the proposal ('Mint 250.00 USDX to 0x14dC...9955'). */
    description: text("description").notNull(),
    /** The owner whose signature proposed it (checksummed). */
    proposer: text("proposer").notNull(),
    proposedAt: timestamp("proposed_at", { withTimezone: true }).notNull().defaultNow(),
    /** The latest block when it was proposed: its execution can only come after, so the log search starts here. */
    proposedBlock: bigint("proposed_block", { mode: "number" }).notNull(),
    state: text("state").notNull().default("pending"),
    /** The transaction that executed it (executed or failed). */
    executedTx: text("executed_tx"),
    /** The Safe's threshold when it was proposed, so an answer can say it changed since (null: stored before it was kept). */
    thresholdAtProposal: integer("threshold_at_proposal"),
    /** A batch chunk's payment (a MultiSend of approve and pay): the job and the chunk it pays; null for any other proposal. */
    batchJobId: text("batch_job_id"),
    batchChunk: integer("batch_chunk"),
  },
  (t) => [
    // A Safe's proposals by nonce: the list, the queue's end, and the pending ones the nonce passed.
    index("safe_proposals_safe_nonce").on(t.chainId, t.safe, t.nonce),
    // History's 'via <Safe>': a page's transaction hashes looked up at once (services/safes/executed.ts).
    index("safe_proposals_executed_tx").on(t.executedTx),
    // A job's proposals: a chunk's proposal before another is taken, and the job's status answer.
    index("safe_proposals_batch").on(t.batchJobId, t.batchChunk),
  ],
);

/** An owner's signature of a proposal's SafeTx hash: once per owner (the proposer's is the first). */
export const safeApprovals = pgTable(
  "safe_approvals",
  {
    safeTxHash: text("safe_tx_hash")
      .notNull()
      .references(() => safeProposals.safeTxHash, { onDelete: "cascade" }),
    /** The address the signature recovers (checksummed). */
    owner: text("owner").notNull(),
    signature: text("signature").notNull(),
    approvedAt: timestamp("approved_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.safeTxHash, t.owner] })],
);
