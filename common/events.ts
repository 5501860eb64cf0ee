/**
 * USDX's events as the dashboard names them. The Contract Events filter (PRODUCT.md section 2) uses
 * labels that differ from the contract's event names for four of them; both are accepted.
 */
export const EVENT_FILTERS: readonly { label: string; eventName: string | null }[] = [
  { label: "All Events", eventName: null },
  { label: "Transfer", eventName: "Transfer" },
  { label: "Approval", eventName: "Approval" },
  { label: "Pause", eventName: "Paused" },
  { label: "Unpause", eventName: "Unpaused" },
  { label: "RewardMultiplierUpdated", eventName: "RewardMultiplier" },
  { label: "RoleGranted", eventName: "RoleGranted" },
  { label: "RoleRevoked", eventName: "RoleRevoked" },
  { label: "Blocked", eventName: "AccountBlocked" },
  { label: "Unblocked", eventName: "AccountUnblocked" },
];

/** Every event the index holds: USDX's (PRODUCT.md section 3) and BatchPayments'. */
export const INDEXED_EVENT_NAMES: readonly string[] = [
  "Transfer",
  "Approval",
  "RoleGranted",
  "RoleRevoked",
  "RoleAdminChanged",
  "AccountBlocked",
  "AccountUnblocked",
  "RewardMultiplier",
  "Paused",
  "Unpaused",
  "Upgraded",
  "AdminChanged",
  "BeaconUpgraded",
  "Initialized",
  "EIP712DomainChanged",
  "BatchPaid",
];

/** A filter label or an event name to the stored event name; null for 'All Events'; undefined if unknown. */
export function resolveEventName(input: string): string | null | undefined {
  const text = input.trim();
  const filter = EVENT_FILTERS.find((f) => f.label.toLowerCase() === text.toLowerCase());
  if (filter) return filter.eventName;
  return INDEXED_EVENT_NAMES.find((name) => name.toLowerCase() === text.toLowerCase());
}

/**
 * The index stores an event's arguments as JSON, which does not keep their order: the contracts'
 * order for the events people read most (the Contract Events table and its CSV export show them so).
 */
export const EVENT_ARG_ORDER: Readonly<Record<string, readonly string[]>> = {
  Transfer: ["from", "to", "value"],
  Approval: ["owner", "spender", "value"],
  RoleGranted: ["role", "account", "sender"],
  RoleRevoked: ["role", "account", "sender"],
  RoleAdminChanged: ["role", "previousAdminRole", "newAdminRole"],
  BatchPaid: ["payer", "recipientCount", "total", "paymentRef"],
};

/** Arguments that are USDX amounts (base units), by event. */
export const TOKEN_AMOUNT_ARGS: Readonly<Record<string, readonly string[]>> = {
  Transfer: ["value"],
  Approval: ["value"],
  BatchPaid: ["total"],
};

/** An event's argument names in reading order: EVENT_ARG_ORDER's first, then the rest as they come. */
export function argumentNames(eventName: string, args: Record<string, unknown>): string[] {
  const order = EVENT_ARG_ORDER[eventName] ?? [];
  return [...order.filter((n) => n in args), ...Object.keys(args).filter((n) => !order.includes(n))];
}

/** A Transfer seen from an account's history: minted to it, burned from it, or moved. */
export type HistoryType = "Transfer" | "Mint" | "Burn";

export function historyType(from: string, to: string): HistoryType {
  if (/^0x0{40}$/i.test(from)) return "Mint";
  if (/^0x0{40}$/i.test(to)) return "Burn";
  return "Transfer";
}

// PRODUCT.md section 9: events default 10 (the index allows up to 100 a page), history 50 (up to 200),
// recent transactions 5. 'Load Previous Events' pages back with the index's cursor instead of the
// spec's 100-block steps: a step of empty blocks would show nothing, and one block can hold more.
export const EVENTS_DEFAULT_LIMIT = 10;
export const EVENTS_MAX_LIMIT = 100;
export const HISTORY_DEFAULT_LIMIT = 50;
export const HISTORY_MAX_LIMIT = 200;
export const RECENT_TRANSACTIONS = 5;
/** PRODUCT.md section 9: a Contract Events request slower than this shows 'Request Timeout'. */
export const EVENTS_TIMEOUT_MS = 10_000;
