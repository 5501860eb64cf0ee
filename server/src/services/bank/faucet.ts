import { and, gte, ne, sql } from "drizzle-orm";
import type { BankFaucetLimits } from "@common/apiTypes";
import type { BankConfig } from "../../config";
import type { Database } from "../../db/client";
import { deposits } from "../../db/schema";
import { tooMany } from "../../lib/errors";
import { type Tx, USD_IN_BASE_UNITS, dollars, lock } from "./shared";
import { count } from "@common/wording";

const DAY_MS = 86_400_000;
const TRY_TOMORROW = "Try again tomorrow (the day turns at 00:00 UTC).";

/** 00:00 UTC of `now`'s day: the faucet's caps count deposits from here. */
export function utcDayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** Who asks for a deposit: the user, and the client address (as the rate limits key it). */
export interface Depositor {
  uid: string;
  ip: string;
}

interface Usage {
  userAmount: bigint;
  userCount: number;
  /** The day's deposits asked from the depositor's address, all its users together. */
  ipAmount: bigint;
  totalAmount: bigint;
  totalCount: number;
}

/**
 * The test faucet's daily caps: per user and in all, in USDX and in deposits, and per client address
 * in USDX (a new SIWE wallet is a new user, so throwaway wallets from one address share one cap),
 * per UTC day, counting every deposit of the day that has not failed (a pending one holds its room
 * until it fails). Each refusal names the cap it hit: per user, per IP address or for all users.
 */
export class FaucetLimits {
  constructor(
    private readonly db: Database,
    private readonly options: Pick<
      BankConfig,
      "userDailyUsd" | "totalDailyUsd" | "userDailyDeposits" | "totalDailyDeposits" | "ipDailyUsd"
    >,
  ) {}

  private get userCap(): bigint {
    return BigInt(this.options.userDailyUsd) * USD_IN_BASE_UNITS;
  }

  private get ipCap(): bigint {
    return BigInt(this.options.ipDailyUsd) * USD_IN_BASE_UNITS;
  }

  private get totalCap(): bigint {
    return BigInt(this.options.totalDailyUsd) * USD_IN_BASE_UNITS;
  }

  /** The largest single deposit the faucet could ever take, in whole dollars. */
  get maxDepositUsd(): number {
    return Math.min(this.options.userDailyUsd, this.options.totalDailyUsd);
  }

  /** What the deposit screen shows: the caps and what is left today for this user and in all. */
  async left(uid: string, now = new Date()): Promise<BankFaucetLimits> {
    const usage = await this.usage(this.db, { uid, ip: "" }, now);
    const max0 = (n: bigint) => (n > 0n ? n : 0n);
    return {
      window: "utc-day",
      resetsAt: new Date(utcDayStart(now).getTime() + DAY_MS).toISOString(),
      perUserDaily: dollars(this.userCap),
      totalDaily: dollars(this.totalCap),
      perUserDailyDeposits: this.options.userDailyDeposits,
      totalDailyDeposits: this.options.totalDailyDeposits,
      userLeftToday: dollars(max0(this.userCap - usage.userAmount)),
      totalLeftToday: dollars(max0(this.totalCap - usage.totalAmount)),
      userDepositsLeftToday: Math.max(0, this.options.userDailyDeposits - usage.userCount),
      totalDepositsLeftToday: Math.max(0, this.options.totalDailyDeposits - usage.totalCount),
    };
  }

  /**
   * Refuses (429, a sentence) a deposit of `amount` that would pass a cap. Call inside the
   * transaction that inserts the deposit: it takes a lock that every faucet deposit takes, so two
   * requests at once cannot both fit in the last room; the lock is held until that transaction ends.
   */
  async check(tx: Tx, who: Depositor, amount: bigint, now: Date): Promise<void> {
    await lock(tx, "bankFaucet");
    const usage = await this.usage(tx, who, now);
    const o = this.options;
    if (usage.userCount >= o.userDailyDeposits) {
      throw tooMany(`Daily mock deposit limit reached: ${count(o.userDailyDeposits)} deposits a day per user (UTC day). ${TRY_TOMORROW}`);
    }
    if (usage.userAmount + amount > this.userCap) {
      throw tooMany(
        this.amountSentence("Daily mock deposit limit", `${dollars(this.userCap)} USDX a day per user`, this.userCap - usage.userAmount),
      );
    }
    if (usage.ipAmount + amount > this.ipCap) {
      throw tooMany(
        this.amountSentence(
          "Daily mock deposit limit for this IP address",
          `${dollars(this.ipCap)} USDX a day per IP address, all its users together`,
          this.ipCap - usage.ipAmount,
        ),
      );
    }
    if (usage.totalCount >= o.totalDailyDeposits) {
      throw tooMany(
        `The mock bank's daily limit for all users is reached: ${count(o.totalDailyDeposits)} deposits a day in all (UTC day). ${TRY_TOMORROW}`,
      );
    }
    if (usage.totalAmount + amount > this.totalCap) {
      throw tooMany(
        this.amountSentence(
          "The mock bank's daily limit for all users",
          `${dollars(this.totalCap)} USDX a day in all`,
          this.totalCap - usage.totalAmount,
        ),
      );
    }
  }

  /** 'X reached: CAP (UTC day). Try again tomorrow', or when some room is left, how much to ask for instead. */
  private amountSentence(what: string, cap: string, left: bigint): string {
    if (left < 10n ** 16n) {
      return what.startsWith("The")
        ? `${what} is reached: ${cap} (UTC day). ${TRY_TOMORROW}`
        : `${what} reached: ${cap} (UTC day). ${TRY_TOMORROW}`;
    }
    return `${what}: ${cap} (UTC day), and only ${dollars(left)} USDX of it is left today. Deposit at most ${dollars(left)} USD, or ${TRY_TOMORROW.charAt(0).toLowerCase()}${TRY_TOMORROW.slice(1)}`;
  }

  private async usage(db: Database | Tx, { uid, ip }: Depositor, now: Date): Promise<Usage> {
    const [row] = await db
      .select({
        userAmount: sql<string>`coalesce(sum((${deposits.amount})::numeric) filter (where ${deposits.uid} = ${uid}), 0)::text`,
        userCount: sql<number>`(count(*) filter (where ${deposits.uid} = ${uid}))::int`,
        ipAmount: sql<string>`coalesce(sum((${deposits.amount})::numeric) filter (where ${deposits.clientIp} = ${ip}), 0)::text`,
        totalAmount: sql<string>`coalesce(sum((${deposits.amount})::numeric), 0)::text`,
        totalCount: sql<number>`count(*)::int`,
      })
      .from(deposits)
      .where(and(gte(deposits.createdAt, utcDayStart(now)), ne(deposits.status, "failed")));
    return {
      userAmount: BigInt(row.userAmount),
      userCount: Number(row.userCount),
      ipAmount: BigInt(row.ipAmount),
      totalAmount: BigInt(row.totalAmount),
      totalCount: Number(row.totalCount),
    };
  }
}
