import { ZeroAddress } from "ethers";
import { exactTokenAmount } from "@common/amounts";
import type { AlertKind } from "@common/alerts";
import { roleNameOfHash } from "@common/roles";
import type { chainEvents } from "../../db/schema";

type EventRow = typeof chainEvents.$inferSelect;

/**
 * The JSON a receiver gets, but for sentAt, which each attempt adds (webhook.ts):
 * { test, rule: { id, kind }, event: { name, args, blockNumber, blockHash, logIndex, transactionHash,
 * timestamp }, summary, chainId, deliveryId }. Stored with the delivery, so every attempt sends the
 * same event however the index changes meanwhile.
 */
export function eventPayload(
  rule: { id: number; kind: AlertKind },
  event: EventRow,
  chainId: number,
  deliveryId: string,
  previousMultiplier: bigint | null,
): Record<string, unknown> {
  return {
    test: false,
    rule: { id: rule.id, kind: rule.kind },
    event: {
      name: event.eventName,
      args: event.args,
      blockNumber: event.blockNumber,
      blockHash: event.blockHash,
      logIndex: event.logIndex,
      transactionHash: event.transactionHash,
      timestamp: event.blockTime,
    },
    summary: summary(event, previousMultiplier),
    chainId,
    deliveryId,
  };
}

/** A 'Send test': no event, and says so. */
export function testPayload(rule: { id: number; kind: AlertKind }, chainId: number, deliveryId: string): Record<string, unknown> {
  return {
    test: true,
    rule: { id: rule.id, kind: rule.kind },
    event: null,
    summary: "A test delivery from the USDX Dashboard: if its signature checks out, this receiver is ready.",
    chainId,
    deliveryId,
  };
}

const usdx = (value: unknown) => `${exactTokenAmount(BigInt(String(value)))} USDX`;
const multiplier = (value: bigint) => exactTokenAmount(value);

/** One sentence a chat channel can show as it is. */
export function summary(event: EventRow, previousMultiplier: bigint | null): string {
  const a = event.args;
  switch (event.eventName) {
    case "Transfer":
      return a.from === ZeroAddress ? `Mint of ${usdx(a.value)} to ${a.to}` : `Burn of ${usdx(a.value)} from ${a.from}`;
    case "RoleGranted":
      return `${roleNameOfHash(String(a.role)) ?? a.role} granted to ${a.account} by ${a.sender}`;
    case "RoleRevoked":
      return `${roleNameOfHash(String(a.role)) ?? a.role} revoked from ${a.account} by ${a.sender}`;
    case "Paused":
      return `Transfers paused by ${a.account}`;
    case "Unpaused":
      return `Transfers unpaused by ${a.account}`;
    case "Upgraded":
      return `USDX upgraded to the implementation at ${a.implementation}`;
    case "RewardMultiplier": {
      const now = BigInt(String(a.value));
      return `Reward multiplier ${multiplier(now)}${previousMultiplier !== null ? ` (was ${multiplier(previousMultiplier)})` : ""}`;
    }
    case "AccountBlocked":
      return `${a.account} blocked`;
    case "AccountUnblocked":
      return `${a.account} unblocked`;
    default:
      return `${event.eventName} in block ${event.blockNumber}`;
  }
}
