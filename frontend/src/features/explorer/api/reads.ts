import {
  ZeroAddress,
  formatEther,
  formatUnits,
  type AbstractProvider,
  type Interface,
  type ParamType,
  type TransactionResponse,
} from "ethers";
import { USDX__factory } from "@bindings/factories/contracts/USDX__factory";
import { BatchPayments__factory } from "@bindings/factories/contracts/BatchPayments__factory";
import { describeError } from "@common/contractErrors";
import { exactTokenAmount, transferMoved } from "@common/amounts";
import { MULTIPLIER_BASE } from "@common/token";
import { roleNameOfHash } from "@common/roles";
import { TOKEN_SYMBOL } from "@common/token";
import type { AppConfig } from "@/lib/config";
import type { ArgValue, BlockLookup, BlockTransaction, DecodedArg, DecodedCall, DecodedLog, TransactionView } from "./types";

/**
 * The local chain's explorer: reads a transaction or a block and decodes what it can with the
 * generated bindings. Loaded lazily with the explorer pages (it brings ethers and the ABIs).
 */

const USDX_INTERFACE = USDX__factory.createInterface() as unknown as Interface;
const BATCH_INTERFACE = BatchPayments__factory.createInterface() as unknown as Interface;

interface KnownContract {
  label: string;
  iface: Interface;
}

function knownContract(config: AppConfig, address: string | null | undefined): KnownContract | null {
  if (!address) return null;
  const a = address.toLowerCase();
  if (a === config.contracts.proxy.toLowerCase()) return { label: "USDX", iface: USDX_INTERFACE };
  if (a === config.contracts.batchPayments.toLowerCase()) return { label: "BatchPayments", iface: BATCH_INTERFACE };
  return null;
}

/** Our contracts by name; the zero address says what it means in a Transfer (mint or burn). */
function labelOf(config: AppConfig, address: string | null | undefined): string | null {
  if (address === ZeroAddress) return "Zero address";
  return knownContract(config, address)?.label ?? null;
}

// uint256 parameters that carry token amounts; the multiplier functions' own 'value' is not one.
const AMOUNT_PARAMS = new Set(["amount", "value", "addedValue", "subtractedValue", "amounts", "permitValue", "total"]);
const MULTIPLIER_CONTEXTS = new Set(["setRewardMultiplier", "addRewardMultiplier", "RewardMultiplier"]);
const ROLE_PARAMS = new Set(["role", "previousAdminRole", "newAdminRole"]);

/** One decoded argument as a person reads it: amounts in USDX, roles by name, deadlines as dates. */
function argValue(config: AppConfig, context: string, name: string, param: ParamType, value: unknown): ArgValue {
  if (param.isArray()) {
    const child = param.arrayChildren;
    return { kind: "list", items: (value as readonly unknown[]).map((item) => argValue(config, context, name, child, item)) };
  }
  if (param.type === "address") {
    const address = String(value);
    return { kind: "address", address, label: labelOf(config, address) };
  }
  if (param.type === "uint256" && typeof value === "bigint") {
    if (MULTIPLIER_CONTEXTS.has(context)) return { kind: "text", text: `${exactTokenAmount(value, config.token.decimals)}x` };
    if (AMOUNT_PARAMS.has(name)) return { kind: "text", text: `${exactTokenAmount(value, config.token.decimals)} ${TOKEN_SYMBOL}` };
    if (name === "deadline") {
      const date = new Date(Number(value) * 1000);
      return {
        kind: "text",
        text: Number.isNaN(date.getTime()) || value > 10n ** 12n ? `${value} (never)` : `${value} (${date.toLocaleString()})`,
      };
    }
  }
  if (param.type === "bytes32" && ROLE_PARAMS.has(name)) {
    return { kind: "text", text: roleNameOfHash(String(value)) ?? String(value) };
  }
  return { kind: "text", text: String(value) };
}

function decodeArgs(config: AppConfig, context: string, params: readonly ParamType[], values: readonly unknown[]): DecodedArg[] {
  return params.map((param, i) => ({
    name: param.name || `arg${i}`,
    type: param.format("minimal"),
    value: argValue(config, context, param.name, param, values[i]),
  }));
}

/** The function a transaction calls on USDX or BatchPayments; null for anything else. */
export function decodeCall(config: AppConfig, to: string | null, data: string, value: bigint): DecodedCall | null {
  const target = knownContract(config, to);
  if (!target || data === "0x") return null;
  try {
    const parsed = target.iface.parseTransaction({ data, value });
    if (!parsed) return null;
    return {
      contract: target.label,
      name: parsed.name,
      signature: parsed.signature,
      args: decodeArgs(config, parsed.name, parsed.fragment.inputs, [...parsed.args]),
    };
  } catch {
    return null; // a known selector with arguments that do not decode: show the raw input
  }
}

interface RawLog {
  index: number;
  address: string;
  topics: readonly string[];
  data: string;
}

export function decodeLog(config: AppConfig, log: RawLog): DecodedLog {
  const target = knownContract(config, log.address);
  const base = { index: log.index, address: log.address, contract: target?.label ?? null, topics: [...log.topics], data: log.data };
  if (target) {
    try {
      const parsed = target.iface.parseLog({ topics: [...log.topics], data: log.data });
      if (parsed)
        return {
          ...base,
          name: parsed.name,
          signature: parsed.signature,
          args: decodeArgs(config, parsed.name, parsed.fragment.inputs, [...parsed.args]),
        };
    } catch {
      /* not one of the ABI's events: shown raw */
    }
  }
  return { ...base, name: null, signature: null, args: [] };
}

const TRANSFER_TOPIC = USDX_INTERFACE.getEvent("Transfer")!.topicHash;
const MULTIPLIER_TOPIC = USDX_INTERFACE.getEvent("RewardMultiplier")!.topicHash;

/**
 * The reward multiplier in effect at each log index of block `blockNumber`: the multiplier after
 * the block before, changed by the block's own RewardMultiplier logs that come earlier. Two reads
 * (an eth_call at the block before, eth_getLogs of the one block), whatever the block holds; null
 * when the chain cannot answer them.
 */
async function multipliersAt(
  provider: AbstractProvider,
  config: AppConfig,
  blockNumber: number,
  logIndexes: number[],
): Promise<Map<number, bigint> | null> {
  const proxy = config.contracts.proxy;
  try {
    const [before, changes] = await Promise.all([
      provider.call({ to: proxy, data: USDX_INTERFACE.encodeFunctionData("rewardMultiplier"), blockTag: blockNumber - 1 }),
      provider.getLogs({ address: proxy, topics: [MULTIPLIER_TOPIC], fromBlock: blockNumber, toBlock: blockNumber }),
    ]);
    // No code at the block before (the proxy was deployed in this block): its initialize sets 1.0 by a log.
    const start = before === "0x" ? MULTIPLIER_BASE : (USDX_INTERFACE.decodeFunctionResult("rewardMultiplier", before)[0] as bigint);
    const ordered = [...changes].sort((a, b) => a.index - b.index).map((log) => ({ index: log.index, value: BigInt(log.topics[1]) }));
    return new Map(
      logIndexes.map((index) => {
        const last = ordered.filter((c) => c.index < index).pop();
        return [index, last ? last.value : start];
      }),
    );
  } catch {
    return null;
  }
}

/** Adds to each USDX Transfer log what it really moved (shares rounded down at the multiplier of its log). */
async function withMoved(provider: AbstractProvider, config: AppConfig, blockNumber: number, logs: DecodedLog[]): Promise<DecodedLog[]> {
  const isTransfer = (log: DecodedLog) => log.contract === "USDX" && log.topics[0] === TRANSFER_TOPIC && log.topics.length === 3;
  const transfers = logs.filter(isTransfer);
  if (transfers.length === 0) return logs;
  const multipliers = await multipliersAt(
    provider,
    config,
    blockNumber,
    transfers.map((l) => l.index),
  );
  return logs.map((log) => {
    if (!isTransfer(log)) return log;
    const multiplier = multipliers?.get(log.index);
    if (multiplier === undefined) return { ...log, moved: null };
    const value = BigInt(log.data);
    const moved = transferMoved(value, multiplier);
    return { ...log, moved: { value: value.toString(), shares: moved.shares.toString(), amount: moved.amount.toString() } };
  });
}

const gas = (value: bigint) => value.toLocaleString("en-US");
const ether = (value: bigint) => `${formatEther(value)} ETH`;

/**
 * Why a mined transaction reverted: all gas used means it ran out; otherwise it is replayed with
 * eth_call at its block and the contract's error decoded (by selector, across our ABIs).
 */
async function revertReason(provider: AbstractProvider, tx: TransactionResponse, blockNumber: number, gasUsed: bigint): Promise<string> {
  if (gasUsed >= tx.gasLimit) return `It ran out of gas: it used all ${gas(tx.gasLimit)} gas it was given.`;
  try {
    await provider.call({ to: tx.to, from: tx.from, data: tx.data, value: tx.value, gasLimit: tx.gasLimit, blockTag: blockNumber });
  } catch (error) {
    return describeError(error);
  }
  return "Replaying it now succeeds, so the reason it failed at the time could not be recovered.";
}

/** Ethers' errors carry a one-line shortMessage; a query error should say only that. */
function readFailure(error: unknown): Error {
  const e = error as { shortMessage?: unknown; message?: unknown } | null;
  const text = typeof e?.shortMessage === "string" ? e.shortMessage : typeof e?.message === "string" ? e.message : "unknown error";
  return new Error(`Could not read the chain: ${text}`);
}

/** A transaction with its receipt, block time, decoded call and logs; null if the chain does not know it. */
export async function readTransaction(provider: AbstractProvider, config: AppConfig, hash: string): Promise<TransactionView | null> {
  try {
    const [tx, receipt] = await Promise.all([provider.getTransaction(hash), provider.getTransactionReceipt(hash)]);
    if (!tx) return null;
    const blockNumber = receipt?.blockNumber ?? tx.blockNumber ?? null;
    const block = blockNumber !== null ? await provider.getBlock(blockNumber) : null;
    const status = receipt === null ? "pending" : receipt.status === 1 ? "success" : "reverted";
    const gasPrice = receipt?.gasPrice ?? tx.gasPrice ?? null;
    return {
      hash: tx.hash,
      status,
      blockNumber,
      timestamp: block?.timestamp ?? null,
      from: tx.from,
      fromLabel: labelOf(config, tx.from),
      to: tx.to,
      toLabel: labelOf(config, tx.to),
      createdContract: receipt?.contractAddress ?? null,
      value: ether(tx.value),
      nonce: tx.nonce,
      call: decodeCall(config, tx.to, tx.data, tx.value),
      input: tx.data,
      gasLimit: gas(tx.gasLimit),
      gasUsed: receipt ? gas(receipt.gasUsed) : null,
      fee: receipt && gasPrice !== null ? ether(receipt.gasUsed * gasPrice) : null,
      logs: receipt
        ? await withMoved(
            provider,
            config,
            receipt.blockNumber,
            receipt.logs.map((log) => decodeLog(config, log)),
          )
        : [],
      revertReason: receipt && status === "reverted" ? await revertReason(provider, tx, receipt.blockNumber, receipt.gasUsed) : null,
    };
  } catch (error) {
    throw readFailure(error);
  }
}

function methodOf(config: AppConfig, tx: TransactionResponse): string {
  if (!tx.to) return "Contract creation";
  const call = decodeCall(config, tx.to, tx.data, tx.value);
  if (call) return call.name;
  if (tx.data === "0x") return "ETH transfer";
  return `Call ${tx.data.slice(0, 10)}`;
}

/** A block with its transactions; `found: false` with the latest block when it is not mined yet. */
export async function readBlock(provider: AbstractProvider, config: AppConfig, number: number): Promise<BlockLookup> {
  try {
    const [block, latest] = await Promise.all([provider.getBlock(number, true), provider.getBlockNumber()]);
    if (!block) return { found: false, latest };
    // Fetched with the block (getBlock(n, true)), so no request per transaction.
    const transactions: BlockTransaction[] = block.prefetchedTransactions.map((tx) => ({
      hash: tx.hash,
      from: tx.from,
      fromLabel: labelOf(config, tx.from),
      to: tx.to,
      toLabel: labelOf(config, tx.to),
      method: methodOf(config, tx),
      value: ether(tx.value),
    }));
    return {
      found: true,
      block: {
        number: block.number,
        hash: block.hash ?? "",
        parentHash: block.parentHash,
        timestamp: block.timestamp,
        gasUsed: gas(block.gasUsed),
        gasLimit: gas(block.gasLimit),
        miner: block.miner,
        baseFee:
          block.baseFeePerGas !== null && block.baseFeePerGas !== undefined ? `${formatUnits(block.baseFeePerGas, "gwei")} gwei` : null,
        transactions,
        latest: Math.max(latest, block.number),
      },
    };
  } catch (error) {
    throw readFailure(error);
  }
}
