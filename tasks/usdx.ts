import { scope, types } from "hardhat/config";
import { HardhatPluginError } from "hardhat/plugins";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import type { ContractTransactionResponse } from "ethers";
import type { USDX } from "@bindings";
import { parseAddress } from "@common/addresses";
import { exactTokenAmount, parsePositiveTokenAmount, parseTokenAmount } from "@common/amounts";
import {
  DEFAULT_MULTIPLIER_MAX_STEP_PERCENT,
  MULTIPLIER_MAX_STEP_VARIABLE,
  changeToEveryBalance,
  parseStepBound,
  retypeReason,
  retyped,
  retypeWarning,
} from "@common/multiplierStep";
import { ROLES, RoleName, parseRoleName } from "@common/roles";
import { LOG_CHUNK } from "../scripts/lib/network";

/*
 * Each task reads the manifest of the chosen network, checks its input, sends one transaction
 * and prints its hash, or prints the contract's custom error in words. Modules that need the
 * generated bindings are imported inside the actions: hardhat.config.ts loads this file before
 * anything is compiled.
 */

export const usdxScope = scope("usdx", "Operate the USDX token of the chosen network (reads deployments/<network>.json)");

export class TaskError extends HardhatPluginError {
  constructor(message: string) {
    super("usdx", message);
  }
}

/** Runs `body`, turning any failure into a task error that prints its message without a stack. */
export async function guarded<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof TaskError) throw error;
    const { describeError } = await import("@common/contractErrors");
    throw new TaskError(describeError(error));
  }
}

export function check<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new TaskError((error as Error).message);
  }
}

interface Connection {
  usdx: USDX;
  signerAddress: string;
}

/**
 * Connects to the deployed token as the account given by --as (a seeded name on the local chain,
 * an account index, or an address), or else the first account holding `role`.
 */
async function connect(hre: HardhatRuntimeEnvironment, as: string | undefined, role?: RoleName): Promise<Connection> {
  const { assertNetworkReady, isLocalChain } = await import("../scripts/lib/network");
  const { loadDeployment } = await import("@common/manifestFile");
  const { seededAccount } = await import("@common/seedAccounts");
  const { USDX__factory } = await import("@bindings");

  const chainId = await guarded(() => assertNetworkReady(hre));
  const manifest = await guarded(() => loadDeployment(hre.network.name, hre.ethers.provider));
  const signers = await hre.ethers.getSigners();
  if (signers.length === 0) throw new TaskError(`Network '${hre.network.name}' has no account to send from (set DEPLOYER_PRIVATE_KEY).`);
  const reader = USDX__factory.connect(manifest.proxy, hre.ethers.provider);

  let signer = signers[0];
  if (as !== undefined) {
    let wanted: string;
    if (/^\d+$/.test(as)) {
      const index = Number(as);
      if (index >= signers.length) throw new TaskError(`--as ${as}: the network has ${signers.length} accounts.`);
      wanted = signers[index].address;
    } else if (as.startsWith("0x")) {
      wanted = check(() => parseAddress(as));
    } else {
      if (!isLocalChain(chainId)) throw new TaskError("--as <name> names a seeded account, which exist only on the local chain.");
      wanted = signers[check(() => seededAccount(as)).index].address;
    }
    const match = signers.find((s) => s.address === wanted);
    if (!match) throw new TaskError(`--as ${as}: ${wanted} is not an account this network can sign for.`);
    signer = match;
  } else if (role) {
    const holders = await Promise.all(signers.map((s) => reader.hasRole(ROLES[role], s.address)));
    const index = holders.indexOf(true);
    if (index >= 0) signer = signers[index];
  }
  return { usdx: reader.connect(signer), signerAddress: signer.address };
}

async function send(label: string, from: string, tx: () => Promise<ContractTransactionResponse>): Promise<void> {
  await guarded(async () => {
    const response = await tx();
    console.log(`${label}\n  from ${from}\n  transaction ${response.hash}`);
    const receipt = await response.wait();
    console.log(`  mined in block ${receipt?.blockNumber}`);
  });
}

export const logChunkParam = "Blocks per log query (providers cap eth_getLogs ranges)";

const asParam = "Send as: a seeded account name (local chain), an account index, or an address";

usdxScope
  .task("mint", "Mint USDX to an account (MINTER_ROLE)")
  .addParam("to", "Receiver address")
  .addParam("amount", "Amount in USDX, e.g. 12.5")
  .addOptionalParam("as", asParam)
  .setAction(async (args: { to: string; amount: string; as?: string }, hre) => {
    const to = check(() => parseAddress(args.to));
    const amount = check(() => parsePositiveTokenAmount(args.amount));
    const { usdx, signerAddress } = await connect(hre, args.as, "MINTER_ROLE");
    await send(`Mint ${args.amount} USDX to ${to}`, signerAddress, () => usdx.mint(to, amount));
  });

usdxScope
  .task("burn", "Burn USDX from an account (BURNER_ROLE)")
  .addParam("from", "Holder address")
  .addParam("amount", "Amount in USDX, e.g. 12.5")
  .addOptionalParam("as", asParam)
  .setAction(async (args: { from: string; amount: string; as?: string }, hre) => {
    const from = check(() => parseAddress(args.from));
    const amount = check(() => parsePositiveTokenAmount(args.amount));
    const { usdx, signerAddress } = await connect(hre, args.as, "BURNER_ROLE");
    await send(`Burn ${args.amount} USDX from ${from}`, signerAddress, () => usdx.burn(from, amount));
  });

for (const action of ["block", "unblock"] as const) {
  usdxScope
    .task(action, `${action === "block" ? "Block" : "Unblock"} one account, or several separated by commas (BLOCKLIST_ROLE)`)
    .addParam("accounts", "Address, or addresses separated by commas")
    .addOptionalParam("as", asParam)
    .setAction(async (args: { accounts: string; as?: string }, hre) => {
      const accounts = check(() => args.accounts.split(",").map((a) => parseAddress(a)));
      const { usdx, signerAddress } = await connect(hre, args.as, "BLOCKLIST_ROLE");
      const label = `${action === "block" ? "Block" : "Unblock"} ${accounts.join(", ")}`;
      if (accounts.length === 1) {
        await send(label, signerAddress, () => (action === "block" ? usdx.blockAccount(accounts[0]) : usdx.unblockAccount(accounts[0])));
      } else {
        await send(label, signerAddress, () => (action === "block" ? usdx.blockAccounts(accounts) : usdx.unblockAccounts(accounts)));
      }
    });
}

for (const action of ["pause", "unpause"] as const) {
  usdxScope
    .task(action, `${action === "pause" ? "Pause" : "Unpause"} every transfer, mint and burn (PAUSE_ROLE)`)
    .addOptionalParam("as", asParam)
    .setAction(async (args: { as?: string }, hre) => {
      const { usdx, signerAddress } = await connect(hre, args.as, "PAUSE_ROLE");
      await send(action === "pause" ? "Pause USDX" : "Unpause USDX", signerAddress, () =>
        action === "pause" ? usdx.pause() : usdx.unpause(),
      );
    });
}

for (const action of ["grant-role", "revoke-role"] as const) {
  usdxScope
    .task(action, `${action === "grant-role" ? "Grant" : "Revoke"} a role (DEFAULT_ADMIN_ROLE)`)
    .addParam("role", "MINTER, BURNER, BLOCKLIST, ORACLE, PAUSE, UPGRADE or DEFAULT_ADMIN (with or without _ROLE)")
    .addParam("account", "The account")
    .addOptionalParam("as", asParam)
    .setAction(async (args: { role: string; account: string; as?: string }, hre) => {
      const role = check(() => parseRoleName(args.role));
      const account = check(() => parseAddress(args.account));
      const { usdx, signerAddress } = await connect(hre, args.as, "DEFAULT_ADMIN_ROLE");
      const grant = action === "grant-role";
      await send(`${grant ? "Grant" : "Revoke"} ${role} ${grant ? "to" : "from"} ${account}`, signerAddress, () =>
        grant ? usdx.grantRole(ROLES[role], account) : usdx.revokeRole(ROLES[role], account),
      );
    });
}

const confirmParam = "The same value again: needed for a decrease, or a step above --max-step";
const maxStepParam = `The largest step up, in percent of every balance, sent without --confirm (default: ${MULTIPLIER_MAX_STEP_VARIABLE}, else ${DEFAULT_MULTIPLIER_MAX_STEP_PERCENT})`;

/**
 * The oracle's guard (common/multiplierStep.ts): says what the change does to every balance, and
 * refuses a decrease or a step above the bound unless the value was typed again with --confirm.
 */
async function guardMultiplierStep(
  usdx: USDX,
  next: (current: bigint) => bigint,
  args: { typed: string; confirm?: string; maxStep?: string; what: string },
): Promise<string> {
  const bound = check(() =>
    parseStepBound(args.maxStep ?? process.env[MULTIPLIER_MAX_STEP_VARIABLE] ?? DEFAULT_MULTIPLIER_MAX_STEP_PERCENT),
  );
  const current = await guarded(() => usdx.rewardMultiplier());
  const after = next(current);
  const reason = retypeReason(current, after, bound);
  if (args.confirm !== undefined && !retyped(args.typed, args.confirm)) {
    throw new TaskError(`--confirm ${args.confirm} does not match ${args.typed}: type the same ${args.what} twice. Nothing was sent.`);
  }
  if (reason && args.confirm === undefined) {
    throw new TaskError(
      `${retypeWarning(reason, current, after, bound)} Nothing was sent. To send it, type the ${args.what} again: --confirm ${args.typed.trim()}`,
    );
  }
  return `${exactTokenAmount(current)} -> ${exactTokenAmount(after)}: ${changeToEveryBalance(current, after)}`;
}

usdxScope
  .task("set-multiplier", "Set the reward multiplier (ORACLE_ROLE)")
  .addParam("value", "The new multiplier as a decimal, at least 1.0, e.g. 1.0125")
  .addOptionalParam("confirm", confirmParam)
  .addOptionalParam("maxStep", maxStepParam)
  .addOptionalParam("as", asParam)
  .setAction(async (args: { value: string; confirm?: string; maxStep?: string; as?: string }, hre) => {
    const value = check(() => parseTokenAmount(args.value));
    const { usdx, signerAddress } = await connect(hre, args.as, "ORACLE_ROLE");
    const change = await guardMultiplierStep(usdx, () => value, {
      typed: args.value,
      confirm: args.confirm,
      maxStep: args.maxStep,
      what: "new multiplier",
    });
    await send(`Set the reward multiplier to ${args.value} (${change})`, signerAddress, () => usdx.setRewardMultiplier(value));
  });

usdxScope
  .task("add-multiplier", "Add to the reward multiplier (ORACLE_ROLE)")
  .addOptionalParam("increment", "The amount to add as a decimal", "0.01", types.string)
  .addOptionalParam("confirm", "The same increment again: needed for a step above --max-step")
  .addOptionalParam("maxStep", maxStepParam)
  .addOptionalParam("as", asParam)
  .setAction(async (args: { increment: string; confirm?: string; maxStep?: string; as?: string }, hre) => {
    const increment = check(() => parseTokenAmount(args.increment));
    const { usdx, signerAddress } = await connect(hre, args.as, "ORACLE_ROLE");
    const change = await guardMultiplierStep(usdx, (current) => current + increment, {
      typed: args.increment,
      confirm: args.confirm,
      maxStep: args.maxStep,
      what: "increment",
    });
    await send(`Add ${args.increment} to the reward multiplier (${change})`, signerAddress, () => usdx.addRewardMultiplier(increment));
  });

usdxScope
  .task("status", "Print supply, shares, multiplier, pause state, role holders and blocked accounts")
  .addOptionalParam("logChunk", logChunkParam, LOG_CHUNK, types.int)
  .setAction(async (args: { logChunk: number }, hre) => {
    const { readStatus, formatStatus } = await import("../scripts/lib/status");
    const { assertNetworkReady } = await import("../scripts/lib/network");
    const { loadDeployment } = await import("@common/manifestFile");
    if (args.logChunk < 1) throw new TaskError("--log-chunk must be at least 1.");
    await guarded(async () => {
      // It only reads: an RPC URL is enough, no deployer key (as for adopt).
      await assertNetworkReady(hre, { readOnly: true });
      const manifest = await loadDeployment(hre.network.name, hre.ethers.provider);
      console.log(formatStatus(await readStatus(hre, manifest, args.logChunk)));
    });
  });
