import { JsonRpcSigner, Wallet, parseEther, toQuantity, type JsonRpcApiProvider, type Signer } from "ethers";
import { describeError } from "@common/contractErrors";
import type { DeploymentManifest, NamedSafe, SafeContracts } from "@common/manifest";
import { writeManifest } from "@common/manifestFile";
import { plural } from "@common/wording";
import type { ApplyResult, PlanStep, ScenarioProgress } from "./index";
import { planScenario, type Plan, type PlanOptions } from "./plan";
import { tokenAt } from "./read";
import { scenarioReport, type AccountRow, type SafeRow } from "./report";
import type { Scenario } from "./schema";
import { mnemonicKey } from "./accounts";
import { PENDING_SAFE, type SendContext, type Step } from "./steps";

/*
 * Applying a scenario: the plan printed as numbered lines, then each step as it is sent, through
 * the node: as one of its unlocked accounts, or impersonated (hardhat_impersonateAccount, with gas
 * money from hardhat_setBalance), a Safe included. So no key is needed, and a fork works too.
 */

/** What an impersonated sender gets for gas when it has less than half of it. */
export const IMPERSONATED_GAS_ETH = parseEther("10");

/** What the plan says of a file's `user:` part when no one applies it. */
export const USER_PART_NOT_APPLIED = "the Firebase test user's part needs the API server: not applied here";

/** What the user part is given: the chain, and the scenario's accounts by name. */
export interface UserPartContext {
  provider: JsonRpcApiProvider;
  manifest: DeploymentManifest;
  /** The address of an account or Safe the scenario names. */
  addressOf(name: string): string;
  /** A signer for an account the scenario names: its key when the scenario knows it (it can sign messages then), else the node's. */
  signer(name: string): Promise<Signer>;
}

/** One step of the user part: a request to the API server, or a payment from the batch's payer. */
export interface UserPartAction {
  label: string;
  /** The transactions it sends (none for a request). */
  transactions: number;
  /** Resolves with the transactions it sent, when fewer than `transactions`. */
  run(): Promise<void | number>;
}

/** The user part's plan, made before the chain's: where it pays, the chain's plan makes room. */
export interface UserPartPlan {
  actions: UserPartAction[];
  /** What its batch needs of the payer (user.ts UserPayments); null when nothing on chain. */
  payer: { address: string; amounts: bigint[] } | null;
  /** Lines for the printout: the user's email and password, the job. */
  report: string[];
}

/** The Firebase test user's part (user.ts userPartThrough): plans what the file's `user:` asks, from what the API server holds. */
export type UserPart = (scenario: Scenario, ctx: UserPartContext) => Promise<UserPartPlan>;

export interface ApplyOptions extends PlanOptions {
  /** The node: the local chain, or a fork of it (chain 31337). */
  provider: JsonRpcApiProvider;
  /** Print the plan; send nothing. */
  dryRun?: boolean;
  /** The plan's lines, each step as it is sent, and the last line. */
  log?: (line: string) => void;
  /** After each step; awaited, so a panel may store it before the next one is sent. */
  onProgress?: (progress: ScenarioProgress) => void | Promise<void>;
  /** Without it, a file's `user:` part is said not to be applied (in `userPartNote`'s words, when given). */
  userPart?: UserPart;
  userPartNote?: string;
}

export interface ApplyOutcome extends ApplyResult {
  accounts: AccountRow[];
  safes: SafeRow[];
}

/**
 * Plans the scenario on the chain, prints the plan, sends it (unless dryRun), and reads back the
 * printout. A file's user part is planned first, through the API server: its steps go after the
 * balances and before the blocks and the pause (the server refuses a blocked payer and a paused
 * token), and what its batch pays is minted to the payer beforehand, so the payer ends at its balance.
 */
export async function applyScenario(scenario: Scenario, options: ApplyOptions): Promise<ApplyOutcome> {
  const log = options.log ?? (() => undefined);
  let plan = await planScenario(scenario, options.provider, options);
  const sender = new NodeSender(options.provider, plan.unlocked, plan.manifest, options.env ?? process.env);
  let user: UserPartPlan | null = null;
  if (scenario.user && options.userPart) {
    user = await options.userPart(scenario, userContext(sender, plan, options));
    if (user.actions.length > 0) {
      const steps = user.actions.map((a): Step => ({ label: a.label, transactions: a.transactions, api: true, run: () => a.run() }));
      plan = await planScenario(scenario, options.provider, { ...options, user: { payer: user.payer, steps } });
    }
  }
  const notes = [...plan.notes];
  if (scenario.user && !options.userPart) notes.push(options.userPartNote ?? USER_PART_NOT_APPLIED);
  printPlan(plan, notes, log);

  const steps: PlanStep[] = plan.steps.map(({ label }) => ({ label }));
  let sent = 0;
  try {
    if (!options.dryRun && plan.steps.length > 0) {
      log("Sending:");
      for (const [i, step] of plan.steps.entries()) {
        let made: void | number;
        try {
          made = await step.run(sender);
        } catch (error) {
          throw new Error(
            `Step ${i + 1} of ${plan.steps.length} (${step.label}) failed: ${describeError(error)} ${plural(sent, "transaction")} had been sent; applying the file again plans only what is still missing.`,
            { cause: error },
          );
        }
        sent += typeof made === "number" ? made : step.transactions;
        log(`  [${i + 1}/${plan.steps.length}] ${step.label}`);
        await options.onProgress?.({ done: i + 1, total: plan.steps.length, label: step.label });
      }
    }
  } finally {
    await sender.stopImpersonating();
  }
  if (options.dryRun) log("Dry run: nothing sent.");
  else if (plan.steps.length === 0) log("The chain is already in this state: nothing sent.");
  else log(sentLine(plan.steps, sent));

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
  const lines = [...report.lines, ...(user?.report ?? [])];
  return { sent, steps, report: lines, accounts: report.accounts, safes: report.safes };
}

/** "Sent 12 transactions, made 1 node call and 5 requests to the API server." */
function sentLine(steps: Step[], sent: number): string {
  const calls = steps.filter((s) => s.transactions === 0 && !s.api).length;
  const requests = steps.filter((s) => s.api && s.transactions === 0).length;
  const made = [calls > 0 ? plural(calls, "node call") : "", requests > 0 ? plural(requests, "request") + " to the API server" : ""].filter(
    Boolean,
  );
  return `Sent ${plural(sent, "transaction")}${made.length > 0 ? `${made.length === 2 ? ", made " : " and made "}${made.join(" and ")}` : ""}.`;
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

function userContext(sender: NodeSender, plan: Plan, options: ApplyOptions): UserPartContext {
  const byName = new Map(plan.accounts.map((a) => [a.name, a]));
  const addressOf = (name: string): string => {
    const address = byName.get(name)?.address ?? plan.safes.get(name);
    if (address) return address;
    if (plan.safes.has(name)) throw new Error(`The ${name} is created by this apply: apply the file again to name it in the user's part.`);
    throw new Error(`The scenario names no account or Safe '${name}' on this chain.`);
  };
  return {
    provider: options.provider,
    manifest: sender.manifest,
    addressOf,
    async signer(name) {
      const account = byName.get(name);
      const key = account ? (account.privateKey ?? (account.index !== null ? mnemonicKey(account.index) : null)) : null;
      return sender.signer(addressOf(name), key);
    },
  };
}

/** Sends each step's transactions through the node. */
class NodeSender implements SendContext {
  readonly created = new Map<string, string>();
  manifest: DeploymentManifest;
  private readonly impersonated = new Set<string>();

  constructor(
    readonly provider: JsonRpcApiProvider,
    private readonly unlocked: string[],
    manifest: DeploymentManifest,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.manifest = manifest;
  }

  address(who: string): string {
    if (!who.startsWith(PENDING_SAFE)) return who;
    const address = this.created.get(who.slice(PENDING_SAFE.length));
    if (!address) throw new Error(`The ${who.slice(PENDING_SAFE.length)} has not been created yet.`);
    return address;
  }

  /** With `key`, messages are signed by the key (the node's impersonated accounts cannot sign one); transactions still go through the node, which keeps the nonce. */
  async signer(who: string, key?: string | null): Promise<JsonRpcSigner> {
    // Not provider.getSigner: ethers asks eth_accounts, which does not list impersonated accounts.
    const address = await this.sender(who);
    return key ? new KeyedNodeSigner(this.provider, address, new Wallet(key)) : new JsonRpcSigner(this.provider, address);
  }

  /** The address that sends as `who`: the node signs for it, unlocked or impersonated (with gas money). */
  private async sender(who: string): Promise<string> {
    const address = this.address(who);
    if (!this.unlocked.includes(address) && !this.impersonated.has(address)) {
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

/**
 * A node account whose key the scenario knows: it sends through the node as its other steps do
 * (a Wallet of its own would pick its nonce from a provider that caches the count for a moment, and
 * send a used one), and signs messages and typed data with the key.
 */
class KeyedNodeSigner extends JsonRpcSigner {
  constructor(
    provider: JsonRpcApiProvider,
    address: string,
    private readonly key: Wallet,
  ) {
    super(provider, address);
  }

  override signMessage(message: string | Uint8Array): Promise<string> {
    return this.key.signMessage(message);
  }

  override signTypedData(...args: Parameters<Wallet["signTypedData"]>): Promise<string> {
    return this.key.signTypedData(...args);
  }
}
