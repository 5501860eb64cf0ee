import { Interface, LogDescription, getAddress, id as eventTopic } from "ethers";
import type { Chain } from "../../chain/client";
import type { chainEvents } from "../../db/schema";
import type { Logger } from "../../lib/logger";

/** A stored event: a row of chain_events. */
export type EventRow = typeof chainEvents.$inferInsert;

/**
 * Turns the logs the indexer reads into the rows it stores: which contract wrote a log, the event
 * and its arguments (as text, so a uint256 survives JSON), and the addresses the histories look
 * events up by. The indexer decides which blocks to read and stores them; this decides what a log
 * says, and knows nothing of the database or the chain's head.
 */
export class EventDecoder {
  private readonly interfaces: Map<string, { name: string; iface: Interface }>;

  constructor(
    chain: Chain,
    private readonly log: Logger,
  ) {
    this.interfaces = new Map([
      [chain.manifest.proxy.toLowerCase(), { name: "USDX", iface: chain.usdx.interface as unknown as Interface }],
      [chain.manifest.batchPayments.toLowerCase(), { name: "BatchPayments", iface: chain.batch.interface as unknown as Interface }],
    ]);
  }

  /** The contracts whose logs are stored: eth_getLogs' address filter. */
  get addresses(): string[] {
    return [...this.interfaces.keys()];
  }

  /** The row for `log`, or null for a log of another contract or an event neither contract declares. */
  decode(log: ParsedLog, blockTime: number): EventRow | null {
    const source = this.interfaces.get(log.address.toLowerCase());
    if (!source) return null;
    if (source.name === "USDX" && log.topics[0] === TRANSFER_TOPIC && log.topics.length === 3) return decodeTransfer(log, blockTime);
    let parsed: LogDescription | null = null;
    try {
      parsed = source.iface.parseLog({ topics: log.topics, data: log.data });
    } catch {
      parsed = null;
    }
    if (!parsed) {
      this.log.warn({ tx: log.transactionHash, topic: log.topics[0] }, "unknown event skipped");
      return null;
    }
    const args: Record<string, string | boolean> = {};
    parsed.fragment.inputs.forEach((input, i) => {
      const value = parsed!.args[i];
      args[input.name || `arg${i}`] = typeof value === "boolean" ? value : String(value);
    });
    const lower = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : null);
    const a = parsed.args as unknown as Record<string, unknown>;
    let account: string | null = null;
    switch (parsed.name) {
      case "BatchPaid":
        account = lower(a.payer);
        break;
      case "RoleGranted":
      case "RoleRevoked":
      case "AccountBlocked":
      case "AccountUnblocked":
        account = lower(a.account);
        break;
    }
    return {
      ...position(log, blockTime),
      contract: source.name,
      eventName: parsed.name,
      signature: parsed.signature,
      args,
      fromAddress: null,
      toAddress: null,
      account,
    };
  }
}

/** Where a log sits: the columns every stored event has. */
function position(log: ParsedLog, blockTime: number) {
  return { blockNumber: log.blockNumber, logIndex: log.index, blockHash: log.blockHash, blockTime, transactionHash: log.transactionHash };
}

// Transfer is nearly every event (a batch payment emits one per recipient): decoded directly,
// since ethers' general decoder costs about 330 microseconds a log.
const TRANSFER_TOPIC = eventTopic("Transfer(address,address,uint256)");

function decodeTransfer(log: ParsedLog, blockTime: number): EventRow {
  const from = getAddress(`0x${log.topics[1].slice(26)}`);
  const to = getAddress(`0x${log.topics[2].slice(26)}`);
  return {
    ...position(log, blockTime),
    contract: "USDX",
    eventName: "Transfer",
    signature: "Transfer(address,address,uint256)",
    args: { from, to, value: BigInt(log.data).toString() },
    fromAddress: from.toLowerCase(),
    toAddress: to.toLowerCase(),
    account: null,
  };
}

/** A log as eth_getLogs answers it: numbers in hex. */
export interface RawLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  logIndex: string;
  removed?: boolean;
}

export interface ParsedLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: number;
  blockHash: string;
  transactionHash: string;
  index: number;
}

export function parseRawLog(log: RawLog): ParsedLog {
  return {
    address: log.address,
    topics: log.topics,
    data: log.data,
    blockNumber: Number(log.blockNumber),
    blockHash: log.blockHash,
    transactionHash: log.transactionHash,
    index: Number(log.logIndex),
  };
}
