import { type SQL, sql } from "drizzle-orm";

/**
 * Every advisory lock the server takes, each in a key space of its own. PostgreSQL's two-integer
 * form (classid, objid) is the lock's identity: the class says which kind of lock it is, and only
 * the objid is hashed from a key (hashtext, 32 bits). A key a user controls (their uid, which a
 * wallet address decides) can be searched offline until its hash equals another's, but it can only
 * ever take a lock of its own class: never the leader's or the migrations', whose classes no
 * user-derived key uses. (The one-bigint form the server used before put every lock in one space.)
 */
export const LOCK_CLASS = {
  /** The replica that runs the background work (a session lock, services/operations/leader.ts). */
  leader: 1,
  /** Schema migrations, one replica at a time (a session lock, db/client.ts). */
  migrations: 2,
  /** One admin's alert rule write at a time (the rule count). */
  alertRules: 3,
  /** The mock bank's daily faucet caps, counted across every user. */
  bankFaucet: 4,
  /** One batch chunk's proposal at a time (two Safe owners proposing it at once). */
  batchChunk: 5,
  // Per-user kinds: keyed by the user's uid.
  contacts: 10,
  batchJobs: 11,
  bankAccounts: 12,
  bankWallets: 13,
} as const;

export type LockClass = keyof typeof LOCK_CLASS;

/**
 * A transaction-scoped lock of `kind` (PostgreSQL and PGlite alike), held until the transaction
 * ends: on `key` (a uid, a chunk), or, with no key, the one lock of its class (objid 0).
 */
export function xactLock(kind: LockClass, key?: string): SQL {
  return key === undefined
    ? sql`select pg_advisory_xact_lock(${LOCK_CLASS[kind]}::int, 0)`
    : sql`select pg_advisory_xact_lock(${LOCK_CLASS[kind]}::int, hashtext(${key}))`;
}

/** A session lock of a class that has one lock (the leader's, the migrations'), as SQL with no parameters for a pg client. */
export function sessionLockSql(
  kind: "leader" | "migrations",
  call: "pg_advisory_lock" | "pg_try_advisory_lock" | "pg_advisory_unlock",
): string {
  return `select ${call}(${LOCK_CLASS[kind]}, 0)`;
}
