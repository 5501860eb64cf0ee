import { Interface } from "ethers";
import { USDX__factory } from "@bindings";
import { exactTokenAmount } from "@common/amounts";
import { ROLES, type RoleName } from "@common/roles";
import { MULTIPLIER_BASE } from "@common/token";
import { PENDING_SAFE, type SendContext, type Step } from "./steps";

/*
 * The planner's state: the chain as it will be after the steps planned so far (role holders, each
 * named participant's shares and blocklist entry, the pause, the multiplier), and the helpers that
 * plan one transaction and move that state with it. Every transaction is sent as whoever holds the
 * needed role at that moment; when nobody does, an admin holds it for the moment (and gives it up
 * at the end).
 */

const TOKEN = new Interface(USDX__factory.abi);
const B = MULTIPLIER_BASE;

export const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;
/** The shares a mint, transfer or burn of `value` moves at multiplier `m` (the contract rounds down). */
export const sharesMoved = (value: bigint, m: bigint): bigint => (value * B) / m;
/** The smallest amount that moves exactly `shares` at `m`. */
export const amountFor = (shares: bigint, m: bigint): bigint => ceilDiv(shares * m, B);
export const balanceAt = (shares: bigint, m: bigint): bigint => (shares * m) / B;
/** The fewest shares worth at least `balance` at `m`. */
export const sharesFor = (balance: bigint, m: bigint): bigint => ceilDiv(balance * B, m);
/**
 * How far above its target a balance may end at `m`: less than one share's worth, in whole wei. A
 * balance is reached at its target or above it by at most this, never below (a balance is shown
 * rounded down: 9,999.99 for a wei under 10,000 would look wrong).
 */
export const tolerance = (m: bigint): bigint => ceilDiv(m, B);

/** USDX in words: "100,000", "120.5". */
export function usdxText(value: bigint): string {
  const [whole, fraction] = exactTokenAmount(value).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return fraction ? `${grouped}.${fraction}` : grouped;
}

export interface PlannerStart {
  token: string;
  roleHolders: Record<RoleName, string[]>;
  shares: Map<string, bigint>;
  blocked: Map<string, boolean>;
  paused: boolean;
  multiplier: bigint;
  /** The node's unlocked accounts. */
  unlocked: readonly string[];
  /** Each participant's name, in the file's order (accounts, then Safes). */
  names: Map<string, string>;
  /** Which participants are Safes. */
  safes: ReadonlySet<string>;
}

export class Planner {
  readonly steps: Step[] = [];
  readonly roles: Map<RoleName, string[]>;
  readonly shares: Map<string, bigint>;
  readonly blocked: Map<string, boolean>;
  paused: boolean;
  multiplier: bigint;
  /** Roles granted for the moment, given up at the end. */
  private readonly lent: { role: RoleName; holder: string }[] = [];

  constructor(private readonly start: PlannerStart) {
    this.roles = new Map(Object.entries(start.roleHolders).map(([r, list]) => [r as RoleName, [...list]]));
    this.shares = new Map(start.shares);
    this.blocked = new Map(start.blocked);
    this.paused = start.paused;
    this.multiplier = start.multiplier;
  }

  /** A participant as the plan says it: its name ("the Operations Safe"), else its address. */
  nameOf(who: string): string {
    const name = this.start.names.get(who) ?? who;
    return this.isSafe(who) ? `the ${name}` : name;
  }

  isSafe(who: string): boolean {
    return this.start.safes.has(who) || who.startsWith(PENDING_SAFE);
  }

  /**
   * Who sends a call that needs `role`: a named account the node unlocks first, then any other
   * account, a Safe last (each in the file's order); `among` narrows the choice. Nobody: an admin
   * gets the role for the moment.
   */
  holder(role: RoleName, among?: readonly string[]): string {
    const order = [...this.start.names.keys()];
    const rank = (who: string) => {
      const named = this.start.names.has(who);
      const safe = this.isSafe(who);
      const unlocked = this.start.unlocked.includes(who);
      return (safe ? 4 : 0) + (named ? 0 : 2) + (unlocked ? 0 : 1);
    };
    const candidates = (this.roles.get(role) ?? []).filter((h) => !among || among.includes(h));
    candidates.sort((a, b) => rank(a) - rank(b) || index(order, a) - index(order, b));
    if (candidates.length > 0) return candidates[0];
    if (role === "DEFAULT_ADMIN_ROLE") {
      throw new Error("Nobody holds DEFAULT_ADMIN_ROLE on this token, so no role can be granted or revoked. Nothing was sent.");
    }
    const admin = this.holder("DEFAULT_ADMIN_ROLE");
    this.grant(role, admin, " for the moment");
    this.lent.push({ role, holder: admin });
    return admin;
  }

  /** Plans one call to the token as `from`. */
  call(label: string, from: string, fn: string, args: (ctx: SendContext) => unknown[]): void {
    this.steps.push({
      label: `${label} (as ${this.nameOf(from)})`,
      transactions: 1,
      run: (ctx) => ctx.send(from, this.start.token, TOKEN.encodeFunctionData(fn, args(ctx))),
    });
  }

  /** Plans one call to any contract as `from`. */
  raw(label: string, from: string, to: string, data: string, gasLimit?: bigint): void {
    this.steps.push({ label: `${label} (as ${this.nameOf(from)})`, transactions: 1, run: (ctx) => ctx.send(from, to, data, gasLimit) });
  }

  grant(role: RoleName, who: string, why = ""): void {
    const admin = this.holder("DEFAULT_ADMIN_ROLE");
    this.call(`grant ${role} to ${this.nameOf(who)}${why}`, admin, "grantRole", (ctx) => [ROLES[role], ctx.address(who)]);
    this.roles.set(role, [...(this.roles.get(role) ?? []), who]);
  }

  revoke(role: RoleName, who: string, sender: string = this.holder("DEFAULT_ADMIN_ROLE")): void {
    this.call(`revoke ${role} from ${this.nameOf(who)}`, sender, "revokeRole", (ctx) => [ROLES[role], ctx.address(who)]);
    this.roles.set(
      role,
      (this.roles.get(role) ?? []).filter((h) => h !== who),
    );
  }

  /** Gives back the roles lent for the moment. */
  returnLentRoles(): void {
    for (const { role, holder } of this.lent.splice(0)) this.revoke(role, holder);
  }

  /** Mints exactly `shares` (the least amount worth them). */
  mintShares(who: string, shares: bigint, why = ""): void {
    if (shares > 0n) this.mint(who, amountFor(shares, this.multiplier), why);
  }

  /** Mints `amount`, which moves its shares rounded down. */
  private mint(who: string, amount: bigint, why = ""): void {
    if (amount <= 0n) return;
    const minter = this.holder("MINTER_ROLE");
    this.call(`mint ${usdxText(amount)} USDX to ${this.nameOf(who)}${why}`, minter, "mint", (ctx) => [ctx.address(who), amount]);
    this.shares.set(who, this.sharesOf(who) + sharesMoved(amount, this.multiplier));
  }

  /** Burns exactly `shares`. */
  burnShares(who: string, shares: bigint): void {
    if (shares > 0n) this.burn(who, amountFor(shares, this.multiplier));
  }

  private burn(who: string, amount: bigint): void {
    if (amount <= 0n) return;
    this.unblock(who, " to burn from it");
    const burner = this.holder("BURNER_ROLE");
    this.call(`burn ${usdxText(amount)} USDX from ${this.nameOf(who)}`, burner, "burn", (ctx) => [ctx.address(who), amount]);
    this.shares.set(who, this.sharesOf(who) - sharesMoved(amount, this.multiplier));
  }

  transfer(from: string, to: string, value: bigint, when = "", before?: (ctx: SendContext) => Promise<void>): void {
    this.unblock(from, " so it can send");
    this.steps.push({
      label: `${this.nameOf(from)} sends ${usdxText(value)} USDX to ${this.nameOf(to)}${when}`,
      transactions: 1,
      run: async (ctx) => {
        await before?.(ctx);
        await ctx.send(from, this.start.token, TOKEN.encodeFunctionData("transfer", [ctx.address(to), value]));
      },
    });
    const moved = sharesMoved(value, this.multiplier);
    this.shares.set(from, this.sharesOf(from) - moved);
    this.shares.set(to, this.sharesOf(to) + moved);
  }

  setBlocked(who: string, blocked: boolean, why = ""): void {
    if ((this.blocked.get(who) ?? false) === blocked) return;
    const blocklister = this.holder("BLOCKLIST_ROLE");
    this.call(
      `${blocked ? "block" : "unblock"} ${this.nameOf(who)}${why}`,
      blocklister,
      blocked ? "blockAccount" : "unblockAccount",
      (ctx) => [ctx.address(who)],
    );
    this.blocked.set(who, blocked);
  }

  unblock(who: string, why: string): void {
    this.setBlocked(who, false, why);
  }

  setPaused(paused: boolean): void {
    if (this.paused === paused) return;
    this.call(paused ? "pause USDX" : "unpause USDX", this.holder("PAUSE_ROLE"), paused ? "pause" : "unpause", () => []);
    this.paused = paused;
  }

  setMultiplier(value: bigint, text: string): void {
    this.call(`set the reward multiplier to ${text}`, this.holder("ORACLE_ROLE"), "setRewardMultiplier", () => [value]);
    this.multiplier = value;
  }

  addMultiplier(value: bigint, text: string): void {
    this.call(`add ${text} to the reward multiplier`, this.holder("ORACLE_ROLE"), "addRewardMultiplier", () => [value]);
    this.multiplier += value;
  }

  sharesOf(who: string): bigint {
    return this.shares.get(who) ?? 0n;
  }
}

const index = (order: string[], who: string) => {
  const i = order.indexOf(who);
  return i === -1 ? order.length : i;
};
