import type { AppConfig } from "@/lib/config";
import type { WriteContracts } from "@/lib/chain/contracts";
import { useRpcSetting } from "@/lib/chain/rpc";
import type { ContractCall } from "./contractCall";
import { NOT_ASKED, NotSentError, onDashboardChain, type SigningWallet } from "./wallet";

/**
 * The dry run before every signature: the write is simulated (eth_call, `from` the wallet's
 * address, at the latest block) and only a call that would succeed goes on to the wallet. A write
 * proposed to a Safe is simulated `from` the Safe, which is what will make the call.
 *
 * Where: on the dashboard's own read provider (the Custom RPC URL, else the configured public RPC),
 * not through the wallet, so the wallet is not contacted at all until the check has passed (no
 * switch-network prompt, no signature request for a call the contract would refuse). That
 * provider's chain is not guaranteed by construction (it is built with a static network, and a
 * Custom RPC URL is probed only when saved), so the chain id is asked alongside the call and a
 * different one stops the write. Only when the dashboard has no RPC URL at all is the wallet the
 * reader: it is then moved to the dashboard's chain first, as a read through it would need.
 */

/** A node that has not answered by then is treated as down (ethers' own limit is 5 minutes). */
export const DRY_RUN_TIMEOUT_MS = 20_000;

/** How long a read provider behind this browser's last transaction is waited for (a Sepolia block is 12 s). */
export const CATCH_UP_MS = 15_000;

/**
 * The newest block one of this browser's own transactions was mined in, as the wallet's node
 * reported it. The read provider may be another node (a public RPC behind a load balancer) a
 * block or two behind: a dry run there would not see that transaction yet, and could refuse the
 * next write wrongly (a batch's second chunk, whose allowance the first one's permit set).
 */
let newestOwnBlock = 0;

/** The runner notes each receipt's block here. */
export function noteMined(block: number): void {
  newestOwnBlock = Math.max(newestOwnBlock, block);
}

/** The chain went back to an earlier block (a snapshot restored): the blocks noted above are gone, and no read will reach them. */
export function forgetMined(): void {
  newestOwnBlock = 0;
}

/** What a write declares: its one call, given the contracts (bound to the reader here, to the signer for the send). */
export type CallOf = (contracts: WriteContracts) => ContractCall;

/**
 * Resolves when `call` would succeed from `from` (the wallet's address unless a Safe is to make the
 * call) at the latest block, with the call as checked (bound to the read provider); otherwise throws
 * NotSentError (or NetworkSwitchError, already told).
 */
export async function dryRun(call: CallOf, config: AppConfig, wallet: SigningWallet, from: string = wallet.address): Promise<ContractCall> {
  // With the first write, not with the page: ethers, the bindings and every ABI's errors.
  const [chain, { describeError, findRevertData, isCallException }] = await Promise.all([
    import("@/lib/chain/contracts"),
    import("@common/contractErrors"),
  ]);
  /** The contract reverted: ethers' CALL_EXCEPTION (with or without data), or revert data anywhere in what the node said. */
  const isRevert = (error: unknown) => isCallException(error) || findRevertData(error) !== null;
  const rpcUrl = useRpcSetting.getState().customRpcUrl || config.rpcUrl;
  if (!rpcUrl) await onDashboardChain(wallet, config);
  const provider = chain.readProvider(config, rpcUrl, rpcUrl ? null : wallet.provider);
  const checked = call(chain.readContracts(config, provider));
  let settled: [PromiseSettledResult<number>, PromiseSettledResult<unknown>];
  try {
    settled = await withTimeout(
      (async () => {
        await caughtUp(provider);
        return Promise.allSettled([chain.readChainId(provider), checked.staticCall({ from, blockTag: "latest" })]);
      })(),
    );
  } catch (error) {
    throw unchecked(describeError(error));
  }
  const [chainId, outcome] = settled;
  if (chainId.status === "fulfilled" && chainId.value !== config.chainId) {
    throw unchecked(
      `the RPC node answers for chain ${chainId.value}, not ${config.networkLabel} (${config.chainId}); check the RPC URL in Settings`,
    );
  }
  if (outcome.status === "fulfilled") {
    if (chainId.status === "rejected") throw unchecked(describeError(chainId.reason));
    return checked;
  }
  if (isRevert(outcome.reason)) throw new NotSentError(`${describeError(outcome.reason)} ${NOT_ASKED}`, "refused");
  throw unchecked(describeError(outcome.reason));
}

/**
 * A check that could not be made stops the write too. Going on to the wallet would drop the
 * promise that a refusal is named before anything is signed, and risk a transaction that reverts
 * and still costs gas; a read provider that is down also means the figures the form checked are
 * stale. The person is told why and can try again (or fix the RPC URL).
 */
function unchecked(why: string): NotSentError {
  const reason = why.replace(/[.\s]+$/, "");
  return new NotSentError(
    `The transaction could not be checked against the latest block (${reason}), so it was not sent and your wallet was not asked to sign. Try again in a moment.`,
    "unchecked",
  );
}

/** Waits until `provider` has the block of this browser's last transaction; throws (in words) when it stays behind. */
async function caughtUp(provider: { getBlockNumber(): Promise<number> }): Promise<void> {
  if (newestOwnBlock === 0) return; // nothing sent from this page yet: nothing to wait for
  const deadline = Date.now() + CATCH_UP_MS;
  for (;;) {
    const head = await provider.getBlockNumber();
    if (head >= newestOwnBlock) return;
    if (Date.now() >= deadline)
      throw new Error(`the RPC node is at block ${head}, behind block ${newestOwnBlock} where your last transaction was mined`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the RPC node did not answer within ${DRY_RUN_TIMEOUT_MS / 1000} s`)), DRY_RUN_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
