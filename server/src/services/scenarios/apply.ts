import { JsonRpcSigner, parseEther, toQuantity, type JsonRpcApiProvider } from "ethers";
import { describeError } from "@common/contractErrors";
import type { DeploymentManifest, NamedSafe, SafeContracts } from "@common/manifest";
import { writeManifest } from "@common/manifestFile";
import { plural } from "@common/wording";
import type { ApplyResult, PlanStep, ScenarioProgress } from "./index";
import { planScenario, type Plan, type PlanOptions } from "./plan";
import { tokenAt } from "./read";
import { scenarioReport, type AccountRow, type SafeRow } from "./report";
import type { Scenario } from "./schema";
import { PENDING_SAFE, type SendContext } from "./steps";

/*
 * Applying a scenario: the plan printed as numbered lines, then each step as it is sent, through
 * the node: as one of its unlocked accounts, or impersonated (hardhat_impersonateAccount, with gas
 * money from hardhat_setBalance), a Safe included. So no key is needed, and a fork works too.
 */

/** What an impersonated sender gets for gas when it has less than half of it. */
export const IMPERSONATED_GAS_ETH = parseEther("10");

/** What the plan says of a file's `user:` part when no one applies it (the CLI). */
export const USER_PART_NOT_APPLIED = "the Firebase test user's part needs the API server: not applied here";

export interface UserPartContext {
  provider: JsonRpcApiProvider;
  manifest: DeploymentManifest;
  /** The address of an account or Safe the scenario names. */
  addressOf(name: string): string;
  /** A signer for any address, through the node (unlocked or impersonated). */
  signer(address: string): Promise<JsonRpcSigner>;
  dryRun: boolean;
  log(line: string): void;
}

/** The Firebase test user's part (server/src/services/scenarios/user.ts): it plans, and unless dryRun applies, what the file's `user:` asks. */
export type UserPart = (scenario: Scenario, ctx: UserPartContext) => Promise<PlanStep[]>;

export interface ApplyOptions extends PlanOptions {
  /** The node: the local chain, or a fork of it (chain 31337). */
  provider: JsonRpcApiProvider;
  /** Print the plan; send nothing. */
  dryRun?: boolean;
  /** The plan's lines, each step as it is sent, and the last line. */
  log?: (line: string) => void;
  /** After each step; awaited, so a panel may store it before the next one is sent. */
  onProgress?: (progress: ScenarioProgress) => void | Promise<void>;
  /** Without it, a file's `user:` part is said not to be applied. */
  userPart?: UserPart;
}

export interface ApplyOutcome extends ApplyResult {
  accounts: AccountRow[];
  safes: SafeRow[];
}

/** Plans the scenario on the chain, prints the plan, sends it (unless dryRun), and reads back the printout. */
export async function applyScenario(scenario: Scenario, options: ApplyOptions): Promise<ApplyOutcome> {
  const log = options.log ?? (() => undefined);
  const plan = await planScenario(scenario, options.provider, options);
  const notes = [...plan.notes];
  if (scenario.user && !options.userPart) notes.push(USER_PART_NOT_APPLIED);
  printPlan(plan, notes, log);

  const sender = new NodeSender(options.provider, plan, options.env ?? process.env);
  const steps: PlanStep[] = plan.steps.map(({ label }) => ({ label }));
  let sent = 0;
  try {
    if (!options.dryRun && plan.steps.length > 0) {
      log("Sending:");
      for (const [i, step] of plan.steps.entries()) {
        try {
          await step.run(sender);
        } catch (error) {
          throw new Error(
            `Step ${i + 1} of ${plan.steps.length} (${step.label}) failed: ${describeError(error)} ${plural(sent, "transaction")} had been sent; applying the file again plans only what is still missing.`,
            { cause: error },
          );
        }
        sent += step.transactions;
        log(`  [${i + 1}/${plan.steps.length}] ${step.label}`);
        await options.onProgress?.({ done: i + 1, total: plan.steps.length, label: step.label });
      }
    }
    if (scenario.user && options.userPart) {
      steps.push(...(await options.userPart(scenario, userContext(sender, plan, options, log))));
    }
  } finally {
    await sender.stopImpersonating();
  }
  if (options.dryRun) log("Dry run: nothing sent.");
  else if (plan.steps.length === 0) log("The chain is already in this state: nothing sent.");
  else {
    const calls = plan.steps.filter((s) => s.transactions === 0).length;
    log(`Sent ${plural(sent, "transaction")}${calls > 0 ? ` and made ${plural(calls, "node call")}` : ""}.`);
  }

  const safes: NamedSafe[] = [...plan.safes]
    .map(([name, address]) => ({ name, address: address ?? sender.created.get(name) ?? "" }))
    .filter((s) => s.address !== "");
  const report = await scenarioReport(
    tokenAt(plan.manifest, options.provider),
    scenario,
    plan.accounts,
    safes,
    options.dryRun ? 0 : plan.clockSeconds,
  );
  return { sent, steps, report: report.lines, accounts: report.accounts, safes: report.safes };
}

function printPlan(plan: Plan, notes: string[], log: (line: string) => void): void {
  const where = plan.scenario.file ?? plan.scenario.name;
  if (plan.steps.length === 0) log(`Plan for ${where}: nothing to send.`);
  else {
    log(`Plan for ${where} (${plural(plan.steps.length, "step")}):`);
    const width = String(plan.steps.length).length;
    plan.steps.forEach((step, i) => log(`  ${String(i + 1).padStart(width)}. ${step.label}`));
  }
  for (const note of notes) log(`  - ${note}`);
}

function userContext(sender: NodeSender, plan: Plan, options: ApplyOptions, log: (line: string) => void): UserPartContext {
  const byName = new Map<string, string>(plan.accounts.map((a) => [a.name, a.address]));
  return {
    provider: options.provider,
    manifest: sender.manifest,
    addressOf(name) {
      const address = byName.get(name) ?? plan.safes.get(name) ?? sender.created.get(name);
      if (!address) throw new Error(`The scenario names no account or Safe '${name}' on this chain.`);
      return address;
    },
    signer: (address) => sender.signer(address),
    dryRun: options.dryRun === true,
    log,
  };
}

/** Sends each step's transactions through the node. */
class NodeSender implements SendContext {
  readonly created = new Map<string, string>();
  manifest: DeploymentManifest;
  private readonly impersonated = new Set<string>();

  constructor(
    readonly provider: JsonRpcApiProvider,
    private readonly plan: Plan,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.manifest = plan.manifest;
  }

  address(who: string): string {
    if (!who.startsWith(PENDING_SAFE)) return who;
    const address = this.created.get(who.slice(PENDING_SAFE.length));
    if (!address) throw new Error(`The ${who.slice(PENDING_SAFE.length)} has not been created yet.`);
    return address;
  }

  async signer(who: string): Promise<JsonRpcSigner> {
    // Not provider.getSigner: ethers asks eth_accounts, which does not list impersonated accounts.
    return new JsonRpcSigner(this.provider, await this.sender(who));
  }

  /** The address that sends as `who`: the node signs for it, unlocked or impersonated (with gas money). */
  private async sender(who: string): Promise<string> {
    const address = this.address(who);
    if (!this.plan.unlocked.includes(address) && !this.impersonated.has(address)) {
      await this.provider.send("hardhat_impersonateAccount", [address]);
      this.impersonated.add(address);
      if ((await this.provider.getBalance(address)) < IMPERSONATED_GAS_ETH / 2n) {
        await this.provider.send("hardhat_setBalance", [address, toQuantity(IMPERSONATED_GAS_ETH)]);
      }
    }
    return address;
  }

  /** Three requests a transaction (estimate, send, receipt): the seed runs for every test stack. */
  async send(who: string, to: string, data: string, gasLimit?: bigint): Promise<void> {
    const tx = { from: await this.sender(who), to, data };
    const gas = gasLimit ?? BigInt(await this.provider.send("eth_estimateGas", [tx]));
    const hash = (await this.provider.send("eth_sendTransaction", [{ ...tx, gas: toQuantity(gas) }])) as string;
    // The local node mines each transaction as it comes; a node that mines on an interval is waited for.
    let receipt: { status: string } | null = null;
    for (let wait = 0; !receipt; wait = Math.min(wait + 50, 1000)) {
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      receipt = await this.provider.send("eth_getTransactionReceipt", [hash]);
    }
    if (receipt.status !== "0x1") throw new Error(`Transaction ${hash} failed.`);
  }

  safeCreated(name: string, address: string, contracts: SafeContracts): void {
    this.created.set(name, address);
    const safes = [...(this.manifest.safes ?? []).filter((s) => s.name !== name), { name, address }];
    this.manifest = { ...this.manifest, safeContracts: contracts, safes };
    writeManifest(this.manifest, this.env);
  }

  async stopImpersonating(): Promise<void> {
    for (const address of this.impersonated) await this.provider.send("hardhat_stopImpersonatingAccount", [address]);
    this.impersonated.clear();
  }
}
