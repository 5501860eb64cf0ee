import { getAddress, parseEther, toQuantity, type JsonRpcApiProvider } from "ethers";
import { parseTokenAmount } from "@common/amounts";
import type { DeploymentManifest, SafeContracts } from "@common/manifest";
import { loadDeployment } from "@common/manifestFile";
import { LOCAL_CHAIN } from "@common/networks";
import { ROLE_NAMES, type RoleName } from "@common/roles";
import { count } from "@common/wording";
import { crowdAddress, namedAccounts, type NamedAccount } from "./accounts";
import {
  crowdMissing,
  durationText,
  historyTransfers,
  planBalances,
  planCrowd,
  planHistory,
  reached,
  type Crowd,
  type Target,
} from "./movements";
import { Planner, sharesFor, sharesMoved } from "./planner";
import {
  assertLocalChain,
  existingSafe,
  readBalances,
  readHoldings,
  readRoleHolders,
  tokenAt,
  transfersMade,
  usableSafeContracts,
} from "./read";
import { createSafe, deploySafeContracts, freeSaltNonce } from "./safeContracts";
import type { Scenario } from "./schema";
import { PENDING_SAFE, type Step } from "./steps";

/*
 * Reads the chain and plans only the transactions needed to reach the scenario's state, in this
 * order: unpause (when tokens must move); roles and Safes; the history, when not made yet (funded
 * up front); the multiplier; the crowd of holders, then mints and burns to the target balances;
 * the Firebase test user's steps (through the API server); blocklist entries; pause; roles lent for
 * the moment given back.
 */

/** ETH a generated account gets for gas, so a tester can send from it in a wallet. */
export const GENERATED_ACCOUNT_ETH = parseEther("10000");

export interface PlanOptions {
  /** Whose manifest: deployments/<network>.json; "localhost" by default (the in-process Hardhat network's is "hardhat"). */
  network?: string;
  env?: NodeJS.ProcessEnv;
  /** The Firebase test user's steps (apply.ts plans them first), and what its batch needs of the payer. */
  user?: { payer: { address: string; amounts: bigint[] } | null; steps: Step[] };
}

export interface Plan {
  scenario: Scenario;
  manifest: DeploymentManifest;
  accounts: NamedAccount[];
  /** Each Safe of the scenario: its address when it is there already, else null (a step creates it). */
  safes: Map<string, string | null>;
  steps: Step[];
  /** Lines the plan says beside its steps. */
  notes: string[];
  /** The block time the history moves on, in seconds (0 when it was made already). */
  clockSeconds: number;
  /** The node's unlocked accounts: everyone else is impersonated to send. */
  unlocked: string[];
}

export async function planScenario(scenario: Scenario, provider: JsonRpcApiProvider, options: PlanOptions = {}): Promise<Plan> {
  await assertLocalChain(provider);
  const manifest = await loadDeployment(options.network ?? LOCAL_CHAIN.network, provider, options.env);
  const usdx = tokenAt(manifest, provider);
  const accounts = namedAccounts(scenario);
  const unlocked = ((await provider.send("eth_accounts", [])) as string[]).map((a) => getAddress(a));
  const accountAddress = new Map(accounts.map((a) => [a.name, a.address]));

  const safes = new Map<string, string | null>();
  for (const [name, safe] of Object.entries(scenario.safes ?? {})) {
    const owners = safe.owners.map((o) => accountAddress.get(o)!);
    safes.set(name, await existingSafe(provider, manifest, name, owners, safe.threshold));
  }
  const keyOf = (name: string): string =>
    accountAddress.get(name) ?? (safes.has(name) ? (safes.get(name) ?? PENDING_SAFE + name) : getAddress(name));
  const names = new Map<string, string>([
    ...accounts.map((a) => [a.address, a.name] as const),
    ...[...safes.keys()].map((n) => [keyOf(n), n] as const),
  ]);
  const order = [...names.keys()];
  const onChain = order.filter((k) => !k.startsWith(PENDING_SAFE));

  const [roleHolders, holdings, paused, multiplier, safeContracts] = await Promise.all([
    readRoleHolders(usdx, manifest),
    readHoldings(usdx, onChain),
    usdx.paused(),
    usdx.rewardMultiplier(),
    usableSafeContracts(provider, manifest),
  ]);
  const finalMultiplier = targetMultiplier(scenario) ?? multiplier;
  const targets = new Map<string, Target>();
  for (const [who, name] of names) {
    const wanted = scenario.balances?.[name];
    if (wanted === undefined) targets.set(who, { shares: 0n, balance: 0n });
    else if (typeof wanted === "string") {
      const balance = parseTokenAmount(wanted);
      targets.set(who, { shares: sharesFor(balance, finalMultiplier), balance });
    } else targets.set(who, { shares: BigInt(wanted.shares), balance: null });
  }

  // The user's batch pays from the payer after the balances: it gets the shares those transfers take first.
  const payer = options.user?.payer ? getAddress(options.user.payer.address) : null;
  const payerTarget = payer ? targets.get(payer) : undefined;
  if (payer && payerTarget) {
    const paid = options.user!.payer!.amounts.reduce((sum, amount) => sum + sharesMoved(amount, finalMultiplier), 0n);
    targets.set(payer, { shares: payerTarget.shares + paid, balance: null });
  }

  const transfers = historyTransfers(scenario, keyOf);
  const pendingInHistory = transfers.some((t) => t.from.startsWith(PENDING_SAFE) || t.to.startsWith(PENDING_SAFE));
  const historyMade = !pendingInHistory && (await transfersMade(usdx, manifest, transfers));
  const crowd = scenario.holders ? await readCrowd(scenario, keyOf, usdx, manifest) : null;

  const p = new Planner({
    token: manifest.proxy,
    roleHolders,
    shares: new Map(onChain.map((k) => [k, holdings.get(k)!.shares])),
    blocked: new Map(onChain.map((k) => [k, holdings.get(k)!.blocked])),
    paused,
    multiplier,
    unlocked,
    names,
    safes: new Set([...safes.keys()].map(keyOf)),
  });

  for (const account of accounts.filter((a) => a.privateKey)) {
    if ((await provider.getBalance(account.address)) > 0n) continue;
    p.steps.push({
      label: `give ${account.name} ${count(Number(GENERATED_ACCOUNT_ETH / 10n ** 18n))} ETH for gas (hardhat_setBalance, not a transaction)`,
      transactions: 0,
      run: async (ctx) => void (await ctx.provider.send("hardhat_setBalance", [account.address, toQuantity(GENERATED_ACCOUNT_ETH)])),
    });
  }

  // Tokens move when the history is to be made, a balance is off its target, or a holder of the crowd is missing.
  const moves =
    payer !== null ||
    !historyMade ||
    order.some((who) => !reached(p.sharesOf(who), targets.get(who)!, finalMultiplier)) ||
    (crowd !== null && crowdMissing(crowd, finalMultiplier).length > 0);
  if (p.paused && (moves || !scenario.paused)) p.setPaused(false);

  // Safe's contracts and new Safes come from the node's first account, as the seed always made them.
  planRoles(p, scenario, keyOf, safes, safeContracts, () => unlocked[0] ?? p.holder("DEFAULT_ADMIN_ROLE"), accountAddress);

  let clockSeconds = 0;
  if (!historyMade) {
    planHistory(p, transfers, targets, order);
    clockSeconds = transfers.reduce((s, t) => s + t.wait, 0);
  }
  if (p.multiplier !== finalMultiplier) {
    const m = scenario.multiplier!;
    if (typeof m === "string") p.setMultiplier(finalMultiplier, m);
    else {
      p.setMultiplier(parseTokenAmount(m.set), m.set);
      p.addMultiplier(parseTokenAmount(m.add), m.add);
    }
  }
  if (crowd) planCrowd(p, crowd, targets.get(crowd.payer) ?? { shares: 0n, balance: 0n });
  planBalances(p, targets, order);
  if (options.user) {
    if (payer) p.unblock(payer, " so it can pay the user's batch");
    p.steps.push(...options.user.steps);
  }
  const blocked = new Set((scenario.blocked ?? []).map(keyOf));
  for (const who of order) p.setBlocked(who, blocked.has(who));
  if (scenario.paused) p.setPaused(true);
  p.returnLentRoles();

  const notes: string[] = [];
  if (clockSeconds > 0) notes.push(`The history moves the chain's clock ${durationText(clockSeconds)} on.`);
  return { scenario, manifest, accounts, safes, steps: p.steps, notes, clockSeconds, unlocked };
}

/** The multiplier the scenario states, or null when it leaves it as it is. */
export function targetMultiplier(scenario: Scenario): bigint | null {
  const m = scenario.multiplier;
  if (m === undefined) return null;
  return typeof m === "string" ? parseTokenAmount(m) : parseTokenAmount(m.set) + parseTokenAmount(m.add);
}

/**
 * Roles are token-wide: each role the file lists ends with exactly those holders. Grants to
 * accounts first, then the Safes are created and get theirs, then the revokes (DEFAULT_ADMIN_ROLE's
 * last, sent by a holder that stays), as the seed always did.
 */
function planRoles(
  p: Planner,
  scenario: Scenario,
  keyOf: (name: string) => string,
  safes: Map<string, string | null>,
  usable: SafeContracts | null,
  deployerOf: () => string,
  accountAddress: Map<string, string>,
): void {
  const listed = scenario.roles ?? {};
  const wanted = (role: RoleName) => (listed[role] ?? []).map(keyOf);
  const isSafe = (who: string) => [...safes.keys()].some((name) => keyOf(name) === who);
  const grantAll = (safesToo: boolean) => {
    for (const role of ROLE_NAMES) {
      for (const who of wanted(role)) if (isSafe(who) === safesToo && !p.roles.get(role)!.includes(who)) p.grant(role, who);
    }
  };
  grantAll(false);

  const pending = [...safes].filter(([, address]) => address === null).map(([name]) => name);
  const deployer = pending.length > 0 ? deployerOf() : "";
  let contracts = usable;
  if (pending.length > 0 && !contracts) {
    p.steps.push({
      label: `deploy Safe v1.4.1 (singleton, proxy factory, fallback handler, MultiSendCallOnly: 4 transactions) (as ${p.nameOf(deployer)})`,
      transactions: 4,
      run: async (ctx) => void (contracts = await deploySafeContracts(await ctx.signer(deployer))),
    });
  }
  for (const name of pending) {
    const { owners, threshold } = scenario.safes![name];
    p.steps.push({
      label: `create the ${name} (${threshold} of ${owners.join(", ")}) (as ${p.nameOf(deployer)})`,
      transactions: 1,
      run: async (ctx) => {
        const addresses = owners.map((o) => accountAddress.get(o)!);
        const salt = await freeSaltNonce(ctx.provider, contracts!, addresses, threshold);
        ctx.safeCreated(name, await createSafe(await ctx.signer(deployer), contracts!, addresses, threshold, salt), contracts!);
      },
    });
  }
  grantAll(true);

  for (const role of [...ROLE_NAMES.filter((r) => r !== "DEFAULT_ADMIN_ROLE"), "DEFAULT_ADMIN_ROLE" as const]) {
    if (listed[role] === undefined) continue;
    const keep = wanted(role);
    for (const holder of [...p.roles.get(role)!].filter((h) => !keep.includes(h))) {
      p.revoke(role, holder, p.holder("DEFAULT_ADMIN_ROLE", role === "DEFAULT_ADMIN_ROLE" ? keep : undefined));
    }
  }
}

async function readCrowd(
  scenario: Scenario,
  keyOf: (name: string) => string,
  usdx: ReturnType<typeof tokenAt>,
  manifest: DeploymentManifest,
): Promise<Crowd> {
  const { count: n, balance, payer } = scenario.holders!;
  const addresses = Array.from({ length: n }, (_, i) => crowdAddress(scenario.name, i));
  // Shares, not balances: what each holds at the multiplier the plan ends with.
  const shares = await readBalances(usdx, addresses, "sharesOf");
  const payerKey = keyOf(payer);
  const allowance = payerKey.startsWith(PENDING_SAFE) ? 0n : await usdx.allowance(payerKey, manifest.batchPayments);
  return {
    addresses,
    shares,
    balance: parseTokenAmount(balance),
    payer: payerKey,
    allowance,
    batchPayments: manifest.batchPayments,
    scenario: scenario.name,
  };
}
