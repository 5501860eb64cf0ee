import { Interface, keccak256, toUtf8Bytes } from "ethers";
import { BatchPayments__factory } from "@bindings";
import { parseTokenAmount } from "@common/amounts";
import { chunkGasLimit, maxRecipientsPerChunk } from "@common/gasLimits";
import { count } from "@common/wording";
import { seededRandom } from "./accounts";
import { amountFor, balanceAt, sharesFor, sharesMoved, tolerance, usdxText, type Planner } from "./planner";
import type { Scenario } from "./schema";

/*
 * The steps that move tokens: the history (its senders funded first), the mints and burns to the
 * target balances, and the crowd of holders paid through BatchPayments.
 */

const BATCH = new Interface(BatchPayments__factory.abi);
const DAY = 86_400;

/** A named participant's target: exact shares, or a balance reached at it or less than one share's worth above. */
export interface Target {
  shares: bigint;
  /** The balance asked for, or null for a target in shares. */
  balance: bigint | null;
}

export interface HistoryTransfer {
  from: string;
  to: string;
  value: bigint;
  /** Block time to move on before it, in seconds. */
  wait: number;
}

/** The transfers of a scenario's history, participants by key; a generated one from the scenario's name. */
export function historyTransfers(scenario: Scenario, keyOf: (name: string) => string): HistoryTransfer[] {
  const history = scenario.history;
  if (!history) return [];
  if (history.transfers) {
    return history.transfers.map((t) => ({ from: keyOf(t.from), to: keyOf(t.to), value: parseTokenAmount(t.amount), wait: 0 }));
  }
  const { count: n, between, days } = history.generated!;
  const random = seededRandom(`${scenario.name} history`);
  const wait = Math.floor((days * DAY) / n);
  return Array.from({ length: n }, () => {
    const from = Math.floor(random() * between.length);
    const to = (from + 1 + Math.floor(random() * (between.length - 1))) % between.length;
    // 1.00 to 250.00 USDX, in cents.
    const cents = 100 + Math.floor(random() * 24_901);
    return { from: keyOf(between[from]), to: keyOf(between[to]), value: BigInt(cents) * 10n ** 16n, wait };
  });
}

/** Whole days and hours: "30 days", "2 days 4 h". */
export function durationText(seconds: number): string {
  const days = Math.floor(seconds / DAY);
  const hours = Math.floor((seconds % DAY) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const parts = [days ? `${count(days)} ${days === 1 ? "day" : "days"}` : "", hours ? `${hours} h` : "", minutes ? `${minutes} min` : ""];
  return parts.filter(Boolean).join(" ") || `${seconds} s`;
}

/**
 * The history, funded up front: each participant is minted, before the first transfer, what it
 * needs to make its transfers in order and still end at its target shares, so that on a fresh chain
 * no top-up follows (shares do not move with the multiplier; only their worth does).
 */
export function planHistory(
  p: Planner,
  transfers: readonly HistoryTransfer[],
  targets: Map<string, Target>,
  order: readonly string[],
): void {
  const m = p.multiplier;
  const net = new Map<string, bigint>();
  const need = new Map<string, bigint>();
  for (const t of transfers) {
    const moved = sharesMoved(t.value, m);
    const sent = net.get(t.from) ?? 0n;
    need.set(t.from, max(need.get(t.from) ?? 0n, moved - sent));
    net.set(t.from, sent - moved);
    net.set(t.to, (net.get(t.to) ?? 0n) + moved);
  }
  const everyone = [...order, ...[...net.keys()].filter((k) => !order.includes(k))];
  for (const who of everyone) {
    const held = p.sharesOf(who);
    const target = targets.get(who)?.shares ?? 0n;
    p.mintShares(who, max(target - held - (net.get(who) ?? 0n), (need.get(who) ?? 0n) - held, 0n));
  }
  let elapsed = 0;
  const total = transfers.reduce((s, t) => s + t.wait, 0);
  for (const t of transfers) {
    elapsed += t.wait;
    const when = total > 0 ? ` (${durationText(elapsed)} on)` : "";
    p.transfer(t.from, t.to, t.value, when, t.wait > 0 ? (ctx) => moveClock(ctx.provider, t.wait) : undefined);
  }
}

async function moveClock(provider: { send(method: string, params: unknown[]): Promise<unknown> }, seconds: number): Promise<void> {
  await provider.send("evm_increaseTime", [seconds]);
}

/** Whether `shares` meet the target at multiplier `m`: exactly, or a balance at its target or less than a share's worth above. */
export function reached(shares: bigint, target: Target, m: bigint): boolean {
  if (target.balance === null) return shares === target.shares;
  const balance = balanceAt(shares, m);
  return balance >= target.balance && balance - target.balance <= tolerance(m);
}

/**
 * Mints to or burns from each named participant until it is at its target at the final multiplier:
 * the exact shares of a target in shares, else the fewest shares worth the balance.
 */
export function planBalances(p: Planner, targets: Map<string, Target>, order: readonly string[]): void {
  for (const who of order) {
    const target = targets.get(who) ?? { shares: 0n, balance: 0n };
    const held = p.sharesOf(who);
    if (reached(held, target, p.multiplier)) continue;
    const shares = target.balance === null ? target.shares : sharesFor(target.balance, p.multiplier);
    if (shares > held) p.mintShares(who, shares - held);
    else p.burnShares(who, held - shares);
  }
}

export interface Crowd {
  addresses: string[];
  /** Each one's shares now. */
  shares: bigint[];
  balance: bigint;
  payer: string;
  /** What the payer has allowed BatchPayments to spend. */
  allowance: bigint;
  batchPayments: string;
  scenario: string;
}

/** The holders of the crowd below their balance at `m`, each with the amount that moves the shares it lacks. */
export function crowdMissing(crowd: Crowd, m: bigint): { address: string; amount: bigint }[] {
  const wanted = sharesFor(crowd.balance, m);
  return crowd.addresses
    .map((address, i) => ({ address, lacks: wanted - crowd.shares[i] }))
    .filter(({ lacks }) => lacks > 0n)
    .map(({ address, lacks }) => ({ address, amount: amountFor(lacks, m) }));
}

/**
 * Tops up each holder of the crowd below its balance, through BatchPayments, in as few transactions
 * as fit. Planned before the balances: the payer is minted what it pays beyond what it holds over
 * its own target (`payerTarget`), in one mint with its own top-up on a fresh chain.
 */
export function planCrowd(p: Planner, crowd: Crowd, payerTarget: Target): number {
  const m = p.multiplier;
  const missing = crowdMissing(crowd, m);
  if (missing.length === 0) return 0;
  const amounts = missing.map((h) => h.amount);
  const total = amounts.reduce((s, a) => s + a, 0n);
  // In shares, to the share: the payer then ends at its target exactly.
  const paid = amounts.reduce((s, a) => s + sharesMoved(a, m), 0n);
  const payer = crowd.payer;
  p.unblock(payer, " so it can pay the holders");
  p.mintShares(payer, max(paid + payerTarget.shares - p.sharesOf(payer), 0n), " to pay the holders");
  if (crowd.allowance < total) {
    p.call(`approve BatchPayments to spend ${usdxText(total)} USDX of ${p.nameOf(payer)}`, payer, "approve", () => [
      crowd.batchPayments,
      total,
    ]);
  }
  const size = maxRecipientsPerChunk();
  const each = amounts.every((a) => a === amounts[0]) ? `${usdxText(amounts[0])} USDX each` : "each what it lacks";
  for (let start = 0; start < missing.length; start += size) {
    const chunk = missing.slice(start, start + size);
    const chunkAmounts = amounts.slice(start, start + size);
    const ref = keccak256(toUtf8Bytes(`usdx scenario ${crowd.scenario}: holders ${start}`));
    const data = BATCH.encodeFunctionData("pay", [chunk.map((h) => h.address), chunkAmounts, ref]);
    p.raw(
      `pay holders ${count(start + 1)} to ${count(start + chunk.length)} of ${count(missing.length)} ${each} through BatchPayments`,
      payer,
      crowd.batchPayments,
      data,
      chunkGasLimit(chunk.length),
    );
  }
  p.shares.set(payer, p.sharesOf(payer) - paid);
  return missing.length;
}

const max = (...values: bigint[]) => values.reduce((a, b) => (b > a ? b : a));
