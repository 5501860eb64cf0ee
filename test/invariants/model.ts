/**
 * Property tests of USDX and BatchPayments (issue 7): random sequences of every state-changing call,
 * each checked against a model of the contract before it is sent (will it revert, and with which
 * custom error?) and against invariants after it lands. Shared by test/invariants/*.test.ts (a
 * CI-sized count) and bench/invariants.ts (1,000 sequences and more).
 */
import { expect } from "chai";
import fc from "fast-check";
import { MaxUint256, Wallet, ZeroAddress } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import type { BatchPayments, USDX } from "@bindings";
import type { deployFixture } from "../helpers/fixtures";
import { isReadable, MAX_UINT, maxMintAmount, maxMultiplierFor } from "../helpers/limits";

type Fixture = Awaited<ReturnType<typeof deployFixture>>;

const BASE = 10n ** 18n;
const token = (n: number) => BigInt(n) * BASE;

/** The contract's own arithmetic (Math.mulDiv, rounding down). */
const toShares = (amount: bigint, multiplier: bigint) => (amount * BASE) / multiplier;
const toTokens = (shares: bigint, multiplier: bigint) => (shares * multiplier) / BASE;

/** Holders the sequences move tokens between; index 4 is the zero address where a call allows one. */
export const HOLDERS = ["alice", "bob", "carol", "dave"] as const;
type Holder = (typeof HOLDERS)[number];
const ZERO = 4;

/**
 * A value fixed only when its step runs, from the state then: an exact limit plus `offset`, so the
 * sequences land on both sides of the supply bound (issue 13) whatever came before.
 * - "mint": the largest amount a mint may create now (one wei more adds one share too many);
 * - "multiplier": the largest multiplier the shares in existence allow (for an increment: minus
 *   the current multiplier);
 * - "uint": 2^256 - 1 (for an increment: 2^256 - 1 minus the current multiplier, so +1 overflows);
 * - "balance": the sender's balance in tokens.
 * The result is clamped to 0 .. 2^256 - 1, the uint256 a call can take.
 */
export interface NearLimit {
  limit: "mint" | "multiplier" | "uint" | "balance";
  offset: bigint;
}

type Value = bigint | NearLimit;

/** What one step asks the contract to do. `authorised` false sends it from an account without the role. */
type ActionOf<V> =
  | { kind: "mint"; authorised: boolean; to: number; amount: V }
  | { kind: "burn"; authorised: boolean; from: number; amount: V }
  | { kind: "transfer"; from: number; to: number; amount: V }
  | { kind: "transferFrom"; spender: number; from: number; to: number; amount: V }
  | { kind: "approve"; owner: number; spender: number; amount: bigint }
  | { kind: "block" | "unblock"; authorised: boolean; account: number }
  | { kind: "pause" | "unpause"; authorised: boolean }
  | { kind: "setRewardMultiplier"; authorised: boolean; value: V }
  | { kind: "addRewardMultiplier"; authorised: boolean; increment: V };

/** A step as generated: some values are near a limit of the state the step will meet. */
export type Action = ActionOf<Value>;
/** A step with every value fixed: what is sent. */
type Call = ActionOf<bigint>;

const holder = fc.integer({ min: 0, max: HOLDERS.length - 1 });
const holderOrZero = fc.integer({ min: 0, max: ZERO });
/** Mostly within balances, sometimes zero, sometimes far beyond anything held. */
const amount = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0n) },
  { weight: 6, arbitrary: fc.bigInt({ min: 1n, max: token(500) }) },
  { weight: 2, arbitrary: fc.bigInt({ min: 1n, max: 1000n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: token(500), max: token(100_000) }) },
);
/** Near 2^256 - 1, as a plain value. */
const nearMax = fc.bigInt({ min: MAX_UINT - token(1_000_000), max: MAX_UINT });
/** Mostly a few wei either side of the limit (the boundary itself), sometimes further. */
const offset = fc.oneof(
  { weight: 4, arbitrary: fc.bigInt({ min: -2n, max: 2n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: -token(1000), max: token(1000) }) },
);
const near = (...limits: NearLimit["limit"][]): fc.Arbitrary<NearLimit> => fc.record({ limit: fc.constantFrom(...limits), offset });
/** A mint: ordinary amounts, near 2^256 - 1, or either side of the exact bound for the state then. */
const mintAmount: fc.Arbitrary<Value> = fc.oneof(
  { weight: 7, arbitrary: amount },
  { weight: 1, arbitrary: nearMax },
  { weight: 3, arbitrary: near("mint", "uint") },
);
/** A transfer or burn: ordinary amounts, near 2^256 - 1, or either side of the sender's balance. */
const moveAmount: fc.Arbitrary<Value> = fc.oneof(
  { weight: 8, arbitrary: amount },
  { weight: 1, arbitrary: nearMax },
  { weight: 1, arbitrary: near("balance", "uint") },
);
/** Mostly authorised: a refused call tests one revert, an accepted one moves the state on. */
const authorised = fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });

export const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("mint" as const), authorised, to: holderOrZero, amount: mintAmount }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("burn" as const), authorised, from: holderOrZero, amount: moveAmount }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("transfer" as const), from: holder, to: holderOrZero, amount: moveAmount }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("transferFrom" as const),
      spender: holder,
      from: holder,
      to: holderOrZero,
      amount: moveAmount,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("approve" as const),
      owner: holder,
      spender: holderOrZero,
      amount: fc.oneof({ weight: 4, arbitrary: amount }, { weight: 1, arbitrary: fc.constant(MaxUint256) }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom("block" as const, "unblock" as const), authorised, account: holder }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom("pause" as const, "unpause" as const), authorised }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("setRewardMultiplier" as const),
      authorised,
      // Below 1.0 must be refused; above it, odd values make the rounding bite. Sometimes huge,
      // sometimes either side of the largest multiplier the shares allow, or 2^256 - 1.
      value: fc.oneof(
        { weight: 5, arbitrary: fc.bigInt({ min: BASE / 2n, max: 3n * BASE }) },
        { weight: 1, arbitrary: fc.bigInt({ min: BASE, max: MAX_UINT }) },
        { weight: 2, arbitrary: near("multiplier", "uint") },
      ) as fc.Arbitrary<Value>,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("addRewardMultiplier" as const),
      authorised,
      // 0 must be refused; sometimes huge, or either side of the supply bound or of 2^256 - 1.
      increment: fc.oneof(
        { weight: 1, arbitrary: fc.constant(0n) },
        { weight: 5, arbitrary: fc.bigInt({ min: 1n, max: BASE / 10n }) },
        { weight: 1, arbitrary: fc.bigInt({ min: 1n, max: MAX_UINT }) },
        { weight: 2, arbitrary: near("multiplier", "uint") },
      ) as fc.Arbitrary<Value>,
    }),
  },
);

export const sequenceArb = (maxSteps: number) => fc.array(actionArb, { minLength: Math.min(5, maxSteps), maxLength: maxSteps });

/** What the runs did, for the benchmark's figures. */
export interface Stats {
  sequences: number;
  steps: number;
  invariantChecks: number;
  succeeded: number;
  /** Reverts seen (each the one the model expected), by custom error name. */
  reverts: Record<string, number>;
}

export const newStats = (): Stats => ({ sequences: 0, steps: 0, invariantChecks: 0, succeeded: 0, reverts: {} });

/** The model: what the contract should hold. */
interface Model {
  shares: bigint[];
  totalShares: bigint;
  multiplier: bigint;
  paused: boolean;
  blocked: boolean[];
  /** allowances[owner][spender], spender index 0..3 (the zero address is never approved). */
  allowances: bigint[][];
}

/** Fixes a step's values from the state it meets (see NearLimit). */
function resolve(m: Model, a: Action): Call {
  const clamp = (v: bigint) => (v < 0n ? 0n : v > MAX_UINT ? MAX_UINT : v);
  const fix = (v: Value, base: Record<NearLimit["limit"], () => bigint>): bigint =>
    typeof v === "bigint" ? v : clamp(base[v.limit]() + v.offset);
  const unused = () => {
    throw new Error(`no such limit for ${a.kind}`);
  };
  const amountLimits = (from: number | null) => ({
    mint: () => maxMintAmount(m.totalShares, m.multiplier),
    multiplier: unused,
    uint: () => MAX_UINT,
    balance: () => (from === null || from >= HOLDERS.length ? 0n : toTokens(m.shares[from], m.multiplier)),
  });
  switch (a.kind) {
    case "mint":
      return { ...a, amount: fix(a.amount, amountLimits(null)) };
    case "burn":
    case "transfer":
    case "transferFrom":
      return { ...a, amount: fix(a.amount, amountLimits(a.from)) };
    case "setRewardMultiplier":
      return {
        ...a,
        value: fix(a.value, { mint: unused, balance: unused, multiplier: () => maxMultiplierFor(m.totalShares), uint: () => MAX_UINT }),
      };
    case "addRewardMultiplier":
      return {
        ...a,
        increment: fix(a.increment, {
          mint: unused,
          balance: unused,
          multiplier: () => maxMultiplierFor(m.totalShares) - m.multiplier,
          uint: () => MAX_UINT - m.multiplier,
        }),
      };
    default:
      return a;
  }
}

/** The custom error the call should revert with, or null if it should succeed. */
function expectedError(m: Model, a: Call): string | null {
  const balanceShares = (i: number) => m.shares[i];
  const movable = (from: number, value: bigint): string | null => {
    if (m.blocked[from]) return "USDXBlockedSender";
    if (m.paused) return "USDXPausedTransfers";
    if (balanceShares(from) < toShares(value, m.multiplier)) return "ERC20InsufficientBalance";
    return null;
  };
  switch (a.kind) {
    case "mint":
      if (!a.authorised) return "AccessControlUnauthorizedAccount";
      if (a.to === ZERO) return "USDXInvalidMintReceiver";
      if (m.paused) return "USDXPausedTransfers";
      // The supply bound, exact: the shares after the mint must be worth at most 2^256 - 1 tokens.
      return isReadable(m.totalShares + toShares(a.amount, m.multiplier), m.multiplier) ? null : "USDXSupplyOverflow";
    case "burn": {
      if (!a.authorised) return "AccessControlUnauthorizedAccount";
      if (a.from === ZERO) return "USDXInvalidBurnSender";
      const problem = movable(a.from, a.amount);
      return problem === "ERC20InsufficientBalance" ? "USDXInsufficientBurnBalance" : problem;
    }
    case "transfer":
      if (a.to === ZERO) return "ERC20InvalidReceiver";
      return movable(a.from, a.amount);
    case "transferFrom": {
      if (a.to === ZERO) return "ERC20InvalidReceiver";
      const problem = movable(a.from, a.amount);
      if (problem) return problem;
      const allowance = m.allowances[a.from][a.spender];
      return allowance !== MaxUint256 && allowance < a.amount ? "ERC20InsufficientAllowance" : null;
    }
    case "approve":
      return a.spender === ZERO ? "ERC20InvalidSpender" : null;
    case "block":
    case "unblock":
      if (!a.authorised) return "AccessControlUnauthorizedAccount";
      return m.blocked[a.account] === (a.kind === "block") ? "USDXInvalidBlockedAccount" : null;
    case "pause":
      if (!a.authorised) return "AccessControlUnauthorizedAccount";
      return m.paused ? "EnforcedPause" : null;
    case "unpause":
      if (!a.authorised) return "AccessControlUnauthorizedAccount";
      return m.paused ? null : "ExpectedPause";
    case "setRewardMultiplier":
      if (!a.authorised) return "AccessControlUnauthorizedAccount";
      if (a.value < BASE) return "USDXInvalidRewardMultiplier";
      return isReadable(m.totalShares, a.value) ? null : "USDXSupplyOverflow";
    case "addRewardMultiplier":
      if (!a.authorised) return "AccessControlUnauthorizedAccount";
      if (a.increment === 0n) return "USDXInvalidRewardMultiplier";
      if (m.multiplier + a.increment > MAX_UINT) return "USDXRewardMultiplierOverflow";
      return isReadable(m.totalShares, m.multiplier + a.increment) ? null : "USDXSupplyOverflow";
  }
}

/** The arguments the new supply errors must carry (issue 13); undefined for the others. */
function expectedArgs(m: Model, a: Call, error: string): bigint[] | undefined {
  if (error === "USDXSupplyOverflow") {
    if (a.kind === "mint") return [m.totalShares, toShares(a.amount, m.multiplier), m.multiplier];
    if (a.kind === "setRewardMultiplier") return [m.totalShares, 0n, a.value];
    if (a.kind === "addRewardMultiplier") return [m.totalShares, 0n, m.multiplier + a.increment];
  }
  if (error === "USDXRewardMultiplierOverflow" && a.kind === "addRewardMultiplier") return [m.multiplier, a.increment];
  return undefined;
}

/** The model after a call that succeeded. */
function apply(m: Model, a: Call): void {
  switch (a.kind) {
    case "mint": {
      const s = toShares(a.amount, m.multiplier);
      m.shares[a.to] += s;
      m.totalShares += s;
      break;
    }
    case "burn": {
      const s = toShares(a.amount, m.multiplier);
      m.shares[a.from] -= s;
      m.totalShares -= s;
      break;
    }
    case "transfer":
    case "transferFrom": {
      const s = toShares(a.amount, m.multiplier);
      m.shares[a.from] -= s;
      m.shares[a.to] += s;
      if (a.kind === "transferFrom" && m.allowances[a.from][a.spender] !== MaxUint256) m.allowances[a.from][a.spender] -= a.amount;
      break;
    }
    case "approve":
      m.allowances[a.owner][a.spender] = a.amount;
      break;
    case "block":
    case "unblock":
      m.blocked[a.account] = a.kind === "block";
      break;
    case "pause":
    case "unpause":
      m.paused = a.kind === "pause";
      break;
    case "setRewardMultiplier":
      m.multiplier = a.value;
      break;
    case "addRewardMultiplier":
      m.multiplier += a.increment;
      break;
  }
}

/** A custom error a call reverted with: its name and arguments. */
interface Reverted {
  name: string;
  args: unknown[];
}

/** The custom error from a reverted call (hardhat-ethers keeps the revert data on the error). */
function revertError(contracts: (USDX | BatchPayments)[], error: unknown): Reverted {
  const e = error as { data?: string; error?: { data?: string }; message?: string };
  const data = e.data ?? e.error?.data;
  if (typeof data === "string" && data.length >= 10) {
    for (const contract of contracts) {
      const parsed = contract.interface.parseError(data);
      if (parsed) return { name: parsed.name, args: [...parsed.args] };
    }
  }
  // A Panic (an overflow, say) lands here too: it is never an expected outcome.
  throw new Error(`The call reverted without a custom error this contract declares: ${e.message ?? String(error)}`);
}

/** The custom error's name from a reverted call. */
export function revertName(contracts: (USDX | BatchPayments)[], error: unknown): string {
  return revertError(contracts, error).name;
}

/** Sends the call; null if it succeeded, else the custom error. */
async function sendCall(call: () => Promise<unknown>, ...contracts: (USDX | BatchPayments)[]): Promise<Reverted | null> {
  try {
    const tx = (await call()) as { wait(): Promise<unknown> };
    await tx.wait();
    return null;
  } catch (error) {
    return revertError(contracts, error);
  }
}

/** Sends the call; null if it succeeded, else the custom error's name. */
async function send(call: () => Promise<unknown>, ...contracts: (USDX | BatchPayments)[]): Promise<string | null> {
  return (await sendCall(call, ...contracts))?.name ?? null;
}

function describeAction(a: Action | Call): string {
  return JSON.stringify(a, (_, v) => (typeof v === "bigint" ? v.toString() : v));
}

/** A read that must never revert (issue 13): a revert fails the run with what could not be read. */
async function mustRead<T>(what: string, where: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw new Error(`${where}: ${what} reverted, the token's figures became unreadable: ${(error as Error).message}`, { cause: error });
  }
}

/** Runs one sequence on a fresh deployment (the caller reverts the chain afterwards). */
export async function runSequence(f: Fixture, actions: Action[], stats: Stats): Promise<void> {
  const { usdx } = f;
  const signers: HardhatEthersSigner[] = HOLDERS.map((name: Holder) => f[name]);
  const addresses = [...signers.map((s) => s.address), ZeroAddress];
  const outsider = f.stranger;
  const m: Model = {
    shares: [0n, 0n, 0n, 0n],
    totalShares: 0n,
    multiplier: BASE,
    paused: false,
    blocked: [false, false, false, false],
    allowances: HOLDERS.map(() => [0n, 0n, 0n, 0n]),
  };
  // Everyone starts with something to move, at a multiplier that is not 1.
  for (let i = 0; i < HOLDERS.length; i++) {
    await (await usdx.connect(f.minter).mint(addresses[i], token(1000 * (i + 1)))).wait();
    apply(m, { kind: "mint", authorised: true, to: i, amount: token(1000 * (i + 1)) });
  }
  await (await usdx.connect(f.oracle).setRewardMultiplier(BASE + BASE / 3n)).wait();
  m.multiplier = BASE + BASE / 3n;

  for (const [step, generated] of actions.entries()) {
    const as = (role: HardhatEthersSigner, ok: boolean) => usdx.connect(ok ? role : outsider);
    const a = resolve(m, generated);
    const where = `step ${step + 1} ${describeAction(a)}${a === generated ? "" : ` from ${describeAction(generated)}`}`;
    const expected = expectedError(m, a);
    const args = expected ? expectedArgs(m, a, expected) : undefined;
    const supplyBefore = await mustRead("totalSupply()", where, () => usdx.totalSupply());
    const moving = a.kind === "transfer" || a.kind === "transferFrom" ? [addresses[a.from], addresses[a.to]] : [];
    const sharesBefore = moving.length ? (await usdx.sharesOf(moving[0])) + (await usdx.sharesOf(moving[1])) : 0n;
    let reverted: Reverted | null;
    switch (a.kind) {
      case "mint":
        reverted = await sendCall(() => as(f.minter, a.authorised).mint(addresses[a.to], a.amount), usdx);
        break;
      case "burn":
        reverted = await sendCall(() => as(f.burner, a.authorised).burn(addresses[a.from], a.amount), usdx);
        break;
      case "transfer":
        reverted = await sendCall(() => usdx.connect(signers[a.from]).transfer(addresses[a.to], a.amount), usdx);
        break;
      case "transferFrom":
        reverted = await sendCall(() => usdx.connect(signers[a.spender]).transferFrom(addresses[a.from], addresses[a.to], a.amount), usdx);
        break;
      case "approve":
        reverted = await sendCall(() => usdx.connect(signers[a.owner]).approve(addresses[a.spender], a.amount), usdx);
        break;
      case "block":
        reverted = await sendCall(() => as(f.blocklister, a.authorised).blockAccount(addresses[a.account]), usdx);
        break;
      case "unblock":
        reverted = await sendCall(() => as(f.blocklister, a.authorised).unblockAccount(addresses[a.account]), usdx);
        break;
      case "pause":
        reverted = await sendCall(() => as(f.pauser, a.authorised).pause(), usdx);
        break;
      case "unpause":
        reverted = await sendCall(() => as(f.pauser, a.authorised).unpause(), usdx);
        break;
      case "setRewardMultiplier":
        reverted = await sendCall(() => as(f.oracle, a.authorised).setRewardMultiplier(a.value), usdx);
        break;
      case "addRewardMultiplier":
        reverted = await sendCall(() => as(f.oracle, a.authorised).addRewardMultiplier(a.increment), usdx);
        break;
    }
    const outcome = reverted?.name ?? null;
    expect(outcome, `${where}: the outcome`).to.equal(expected);
    if (args) expect(reverted!.args, `${where}: the arguments of ${outcome}`).to.deep.equal(args);
    stats.steps++;
    if (outcome) stats.reverts[outcome] = (stats.reverts[outcome] ?? 0) + 1;
    else {
      stats.succeeded++;
      apply(m, a);
    }

    // A transfer never creates tokens: it moves shares (the two accounts hold as many together as
    // before) and leaves the supply alone. Their balances, each rounded down, may together read 1
    // wei more than before, never more than the supply: checkInvariants checks the sum of all.
    if (!outcome && moving.length) {
      expect((await usdx.sharesOf(moving[0])) + (await usdx.sharesOf(moving[1])), `${where}: shares of sender and receiver`).to.equal(
        sharesBefore,
      );
      expect(await usdx.totalSupply(), `${where}: total supply`).to.equal(supplyBefore);
    }
    await checkInvariants(usdx, addresses.slice(0, HOLDERS.length), m, where);
    stats.invariantChecks++;
  }
  stats.sequences++;
}

/**
 * After every step: the chain equals the model, the share bookkeeping adds up, and totalSupply()
 * and every holder's balanceOf() read without reverting (issue 13), whatever the amounts and
 * multipliers were.
 */
async function checkInvariants(usdx: USDX, holders: string[], m: Model, where: string): Promise<void> {
  const [totalShares, totalSupply, multiplier, paused, convertedTotal] = await Promise.all([
    usdx.totalShares(),
    mustRead("totalSupply()", where, () => usdx.totalSupply()),
    usdx.rewardMultiplier(),
    usdx.paused(),
    usdx.totalShares().then((s) => mustRead("convertToTokens(totalShares())", where, () => usdx.convertToTokens(s))),
  ]);
  expect(isReadable(m.totalShares, m.multiplier), `${where}: the model's supply is within the bound`).to.equal(true);
  let sum = 0n;
  let balances = 0n;
  for (const [i, account] of holders.entries()) {
    const [shares, balance, blocked] = await Promise.all([
      usdx.sharesOf(account),
      mustRead(`balanceOf(${HOLDERS[i]})`, where, () => usdx.balanceOf(account)),
      usdx.isBlocked(account),
    ]);
    expect(balance, `${where}: ${HOLDERS[i]}'s balance against the model`).to.equal(toTokens(m.shares[i], m.multiplier));
    expect(balance, `${where}: balanceOf == convertToTokens(sharesOf) for ${account}`).to.equal(await usdx.convertToTokens(shares));
    expect(shares, `${where}: ${HOLDERS[i]}'s shares against the model`).to.equal(m.shares[i]);
    expect(blocked, `${where}: ${HOLDERS[i]} blocked`).to.equal(m.blocked[i]);
    for (const [j, spender] of holders.entries()) {
      expect(await usdx.allowance(account, spender), `${where}: allowance ${HOLDERS[i]} -> ${HOLDERS[j]}`).to.equal(m.allowances[i][j]);
    }
    sum += shares;
    balances += balance;
  }
  expect(balances <= totalSupply, `${where}: the balances add up to ${balances}, more than the supply ${totalSupply}`).to.equal(true);
  // Only the holders ever hold shares here, so their sum is all of them.
  expect(sum, `${where}: the sum of sharesOf equals totalShares`).to.equal(totalShares);
  expect(totalShares, `${where}: totalShares against the model`).to.equal(m.totalShares);
  expect(totalSupply, `${where}: totalSupply == convertToTokens(totalShares)`).to.equal(convertedTotal);
  expect(totalSupply, `${where}: totalSupply against the model`).to.equal(toTokens(m.totalShares, m.multiplier));
  expect(multiplier, `${where}: multiplier`).to.equal(m.multiplier);
  expect(paused, `${where}: paused`).to.equal(m.paused);
}

/** One batch payment: recipients (some repeated, some existing holders) and what each is paid. */
export interface BatchCase {
  recipients: { fresh: number | null; holder: number }[];
  amounts: bigint[];
  /** How the allowance compares with the total: exactly it, more, or short by 1 wei. */
  allowance: "exact" | "more" | "short";
}

export const batchArb: fc.Arbitrary<BatchCase> = fc
  .array(
    fc.record({
      recipient: fc.record({
        fresh: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
        holder: fc.integer({ min: 1, max: HOLDERS.length - 1 }),
      }),
      amount: fc.bigInt({ min: 1n, max: token(100) }),
    }),
    { minLength: 1, maxLength: 12 },
  )
  .chain((rows) =>
    fc.record({
      recipients: fc.constant(rows.map((r) => r.recipient)),
      amounts: fc.constant(rows.map((r) => r.amount)),
      allowance: fc.constantFrom("exact" as const, "more" as const, "short" as const),
    }),
  );

/** alice pays the batch through BatchPayments; checks every share moved and nothing stayed behind. */
export async function runBatch(f: Fixture, c: BatchCase, stats: Stats): Promise<void> {
  const { usdx, batch, alice } = f;
  await (await usdx.connect(f.minter).mint(alice.address, token(5_000))).wait();
  await (await usdx.connect(f.oracle).setRewardMultiplier(BASE + BASE / 7n)).wait();
  const multiplier = await usdx.rewardMultiplier();
  const fresh = Array.from({ length: 6 }, () => Wallet.createRandom().address);
  const others = HOLDERS.map((name) => f[name].address);
  const to = c.recipients.map((r) => (r.fresh !== null ? fresh[r.fresh] : others[r.holder]));
  const total = c.amounts.reduce((a, b) => a + b, 0n);
  const allowance = c.allowance === "exact" ? total : c.allowance === "more" ? total + token(1) : total - 1n;
  await (await usdx.connect(alice).approve(await batch.getAddress(), allowance)).wait();

  const distinct = [...new Set([alice.address, ...to])];
  const before = new Map(await Promise.all(distinct.map(async (a) => [a, await usdx.sharesOf(a)] as const)));
  const outcome = await send(() => batch.connect(alice).pay(to, c.amounts, `0x${"ab".repeat(32)}`), batch, usdx);
  stats.steps++;
  const batchAddress = await batch.getAddress();
  if (c.allowance === "short") {
    expect(outcome, "a chunk over the allowance reverts with the token's error").to.equal("ERC20InsufficientAllowance");
    stats.reverts[outcome!] = (stats.reverts[outcome!] ?? 0) + 1;
    for (const a of distinct) expect(await usdx.sharesOf(a), `nothing moved for ${a}`).to.equal(before.get(a));
  } else {
    expect(outcome, "the payment").to.equal(null);
    stats.succeeded++;
    // Each row moves convertToShares(amount) shares from alice to its recipient, exactly.
    const gained = new Map<string, bigint>();
    let paid = 0n;
    to.forEach((a, i) => {
      const s = toShares(c.amounts[i], multiplier);
      gained.set(a, (gained.get(a) ?? 0n) + s);
      paid += s;
    });
    expect(await usdx.sharesOf(alice.address), "the payer's shares").to.equal(before.get(alice.address)! - paid);
    for (const [a, s] of gained) {
      const now = await usdx.sharesOf(a);
      expect(now, `shares of ${a}`).to.equal(before.get(a)! + s);
      // In tokens: never more than the amounts (each row's shares round down, and a balance
      // rounded down rises by at most the ceiling of what its shares are worth), and less by at
      // most 1 wei a row and 1 for the balance's own rounding.
      const rows = c.amounts.filter((_, i) => to[i] === a);
      const want = rows.reduce((x, y) => x + y, 0n);
      const got = toTokens(now, multiplier) - toTokens(before.get(a)!, multiplier);
      expect(got <= want && got >= want - BigInt(rows.length) - 1n, `${a} received ${got}, paid ${want}`).to.equal(true);
    }
    expect(await usdx.allowance(alice.address, batchAddress), "allowance left").to.equal(allowance - total);
  }
  // Nothing ever stays in the batch contract.
  expect(await usdx.sharesOf(batchAddress)).to.equal(0n);
  expect(await usdx.balanceOf(batchAddress)).to.equal(0n);
  stats.invariantChecks++;
  stats.sequences++;
}
