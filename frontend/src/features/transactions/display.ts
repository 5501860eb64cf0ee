import { exactTokenAmount } from "@common/amounts";
import { argumentNames, TOKEN_AMOUNT_ARGS } from "@common/events";
import { roleNameOfHash } from "@common/roles";
import { formatMultiplier, groupDigits, shortAddress } from "@/lib/format";
import type { BadgeProps } from "@/components/ui/badge";
export { groupDigits };

/**
 * An amount of USDX in full: every decimal it has, at least two, grouped ("1,000.00", "12.50",
 * "0.000000000000000001"). History shows what moved exactly, never a rounded figure.
 */
export function exactUsdx(baseUnits: bigint): string {
  const [whole, fraction = ""] = exactTokenAmount(baseUnits).split(".");
  return groupDigits(`${whole}.${fraction.padEnd(2, "0")}`);
}

export const ZERO_ADDRESS = /^0x0{40}$/i;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH32 = /^0x[0-9a-fA-F]{64}$/;

export const sameAddress = (a: string | null | undefined, b: string | null | undefined) =>
  !!a && !!b && a.toLowerCase() === b.toLowerCase();

/** Which way a transfer went for the account whose history this is. */
export type Direction = "in" | "out" | "self";

export function directionOf(account: string, from: string, to: string): Direction {
  const sent = sameAddress(account, from);
  const received = sameAddress(account, to);
  if (sent && received) return "self";
  return sent ? "out" : "in";
}

/** One decoded argument of an event, ready to show. */
export type ShownArg = { name: string; kind: "address"; address: string } | { name: string; kind: "text"; text: string; title?: string };

/** An event's arguments in reading order: addresses as addresses, amounts in USDX, roles by name. */
export function shownArgs(eventName: string, args: Record<string, string | boolean>): ShownArg[] {
  return argumentNames(eventName, args).map((name): ShownArg => {
    const raw = args[name];
    if (typeof raw === "boolean") return { name, kind: "text", text: raw ? "true" : "false" };
    if (ADDRESS.test(raw)) return { name, kind: "address", address: raw };
    if (TOKEN_AMOUNT_ARGS[eventName]?.includes(name) && /^\d+$/.test(raw))
      return { name, kind: "text", text: `${exactUsdx(BigInt(raw))} USDX` };
    if (eventName === "RewardMultiplier" && name === "value" && /^\d+$/.test(raw))
      return { name, kind: "text", text: `${formatMultiplier(BigInt(raw))}x`, title: raw };
    if (HASH32.test(raw)) {
      const role = /role/i.test(name) ? roleNameOfHash(raw) : undefined;
      return role ? { name, kind: "text", text: role, title: raw } : { name, kind: "text", text: shortAddress(raw), title: raw };
    }
    return { name, kind: "text", text: raw };
  });
}

/** The Event badge's colour: changes that restrict are red, the ones that restore green. */
export function eventBadge(eventName: string): NonNullable<BadgeProps["variant"]> {
  switch (eventName) {
    case "Paused":
    case "AccountBlocked":
    case "RoleRevoked":
      return "destructive";
    case "Unpaused":
    case "AccountUnblocked":
    case "RoleGranted":
      return "success";
    case "Transfer":
      return "default";
    default:
      return "secondary";
  }
}
