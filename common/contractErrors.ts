import { ErrorDescription, Interface } from "ethers";
import { exactTokenAmount } from "./amounts";
// Each factory from its own module: the bindings' index also loads every test contract's factory
// (bytecode included), which the dashboard's bundle would then carry.
import { BatchPayments__factory } from "@bindings/factories/contracts/BatchPayments__factory";
import { USDX__factory } from "@bindings/factories/contracts/USDX__factory";
import { roleNameOfHash } from "./roles";
import { describeSafeError } from "./safe";
import { TOKEN_SYMBOL } from "./token";

/**
 * Turns what a failed call to USDX or BatchPayments says into words a person understands.
 * Errors are matched by selector across every deployed ABI (the generated bindings), the way
 * Scaffold-ETH's transactor does, so a USDX error raised inside a batch payment is still named.
 */

const INTERFACES: readonly Interface[] = [new Interface(USDX__factory.abi), new Interface(BatchPayments__factory.abi)];

export interface DecodedContractError {
  /** The custom error's name ('USDXBlockedSender'), or 'Error' / 'Panic' for the built-in ones. */
  name: string;
  /** Its signature ('USDXBlockedSender(address)'). */
  signature: string;
  args: readonly unknown[];
  /** One sentence for a person. */
  message: string;
}

/** Decodes raw revert data (0x + selector + arguments); null when no known error matches. */
export function decodeRevertData(data: string): DecodedContractError | null {
  if (!/^0x[0-9a-fA-F]{8}/.test(data)) return null;
  for (const iface of INTERFACES) {
    let parsed: ErrorDescription | null;
    try {
      parsed = iface.parseError(data);
    } catch {
      parsed = null; // the selector matched but the arguments did not decode: try the next ABI
    }
    if (parsed) {
      const args = [...parsed.args];
      return { name: parsed.name, signature: parsed.signature, args, message: describeContractError(parsed.name, args) };
    }
  }
  return null;
}

const USER_REJECTED = "You rejected the request in your wallet.";

/**
 * Finds revert data in whatever an ethers call, a wallet or a JSON-RPC node threw, and describes
 * it. Falls back to the error's own short message.
 */
export function describeError(error: unknown): string {
  if (isUserRejection(error)) return USER_REJECTED;
  const data = findRevertData(error);
  const decoded = data ? decodeRevertData(data) : null;
  // A Safe refuses with a reason string ('GS026'): in words, whatever the call was.
  const safe = describeSafeError(decoded?.name === "Error" ? String(decoded.args[0]) : reasonString(error));
  if (safe) return safe;
  if (decoded) return decoded.message;
  if (data && data.length >= 10) return `The contract refused the call with an unknown error (${data.slice(0, 10)}).`;
  // A revert without data or reason string: ethers says 'missing revert data', which tells nobody anything.
  if (isCallException(error) && !reasonString(error)) return "The contract refused the call without giving a reason.";
  return shortMessage(error);
}

/** Whether the call reverted (ethers' CALL_EXCEPTION, at any depth), as opposed to failing to reach the node. */
export function isCallException(error: unknown): boolean {
  return walk(error, (node) => node.code === "CALL_EXCEPTION");
}

function reasonString(error: unknown): string | null {
  let found: string | null = null;
  walk(error, (node) => {
    if (typeof node.reason === "string" && node.reason !== "") found = node.reason;
    return found !== null;
  });
  return found;
}

/** Decodes the custom error inside a thrown error, if there is one. */
export function decodeError(error: unknown): DecodedContractError | null {
  const data = findRevertData(error);
  return data ? decodeRevertData(data) : null;
}

export function isUserRejection(error: unknown): boolean {
  return walk(error, (node) => node.code === "ACTION_REJECTED" || node.code === 4001);
}

/** Revert data sits at different depths depending on who threw: ethers, a wallet, or a node. */
export function findRevertData(error: unknown): string | null {
  let found: string | null = null;
  walk(error, (node) => {
    for (const key of ["data", "revertData"]) {
      const value = node[key];
      if (typeof value === "string" && /^0x[0-9a-fA-F]{8}/.test(value)) {
        found = value;
        return true;
      }
    }
    return false;
  });
  return found;
}

function walk(error: unknown, visit: (node: Record<string, unknown>) => boolean, depth = 0): boolean {
  if (depth > 6 || typeof error !== "object" || error === null) return false;
  const node = error as Record<string, unknown>;
  if (visit(node)) return true;
  for (const key of ["error", "info", "cause", "data", "payload"]) {
    if (key in node && walk(node[key], visit, depth + 1)) return true;
  }
  return false;
}

function shortMessage(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const e = error as { shortMessage?: unknown; reason?: unknown; message?: unknown };
    for (const text of [e.reason, e.shortMessage, e.message]) {
      if (typeof text === "string" && text !== "") return text;
    }
  }
  return typeof error === "string" && error !== "" ? error : "Unknown error";
}

function tokens(value: unknown): string {
  return `${exactTokenAmount(value as bigint)} ${TOKEN_SYMBOL}`;
}

function multiplier(value: unknown): string {
  return exactTokenAmount(value as bigint);
}

function timestamp(seconds: unknown): string {
  const date = new Date(Number(seconds) * 1000);
  return Number.isNaN(date.getTime()) ? `block time ${seconds}` : date.toISOString();
}

function role(hash: unknown): string {
  return roleNameOfHash(String(hash)) ?? String(hash);
}

function row(index: unknown): number {
  return Number(index) + 1;
}

const PANIC_REASONS: Record<number, string> = {
  0x01: "an internal check failed",
  0x11: "a number went out of range",
  0x12: "a division by zero",
  0x32: "an index out of range",
};

/** One sentence per error of USDX, BatchPayments and the OpenZeppelin code they use. */
export function describeContractError(name: string, args: readonly unknown[]): string {
  switch (name) {
    case "USDXPausedTransfers":
      return "USDX is paused: no tokens can be transferred, minted or burned until it is unpaused.";
    case "USDXBlockedSender":
      return `The account ${args[0]} is blocked: it cannot send tokens or have tokens burned.`;
    case "USDXInvalidMintReceiver":
      return "Tokens cannot be minted to the zero address.";
    case "USDXInvalidBurnSender":
      return "Tokens cannot be burned from the zero address.";
    case "USDXInsufficientBurnBalance":
      return `Cannot burn ${tokens(args[2])}: ${args[0]} holds only ${tokens(args[1])}.`;
    case "USDXInvalidRewardMultiplier":
      return `${multiplier(args[0])} is not allowed: the reward multiplier cannot go below 1.0, and an increment must be greater than 0.`;
    case "USDXSupplyOverflow":
      return args[1] === 0n
        ? `A reward multiplier of ${multiplier(args[2])} is too large: the ${exactTokenAmount(args[0] as bigint)} shares in existence would be worth more than the largest amount USDX can count (2^256 - 1 base units), and balances could no longer be read.`
        : `Cannot mint that much: the ${exactTokenAmount(args[0] as bigint)} shares in existence plus the ${exactTokenAmount(args[1] as bigint)} new ones, at a reward multiplier of ${multiplier(args[2])}, would be worth more than the largest amount USDX can count (2^256 - 1 base units).`;
    case "USDXRewardMultiplierOverflow":
      return `Cannot add ${multiplier(args[1])} to the reward multiplier of ${multiplier(args[0])}: the result would be larger than the contract can store (2^256 - 1).`;
    case "USDXInvalidBlockedAccount":
      return `Nothing to change: ${args[0]} is already in that blocklist state (blocked when blocking, or not blocked when unblocking).`;
    case "USDXInvalidOwner":
      return "The token's owner cannot be the zero address.";
    case "ERC2612ExpiredDeadline":
      return `The signed permit expired at ${timestamp(args[0])}. Sign a new one.`;
    case "ERC2612InvalidSignature":
      return `The permit signature is not valid for ${args[0]}: it was signed by another account, for other values, or has already been used.`;
    case "ERC20InsufficientBalance":
      return `Insufficient balance: ${args[0]} has ${tokens(args[1])}, and ${tokens(args[2])} is needed.`;
    case "ERC20InsufficientAllowance":
      return `Insufficient allowance: ${args[0]} may spend ${tokens(args[1])}, and ${tokens(args[2])} is needed.`;
    case "ERC20InvalidSender":
      return "Tokens cannot be sent from the zero address.";
    case "ERC20InvalidReceiver":
      return "Tokens cannot be sent to the zero address.";
    case "ERC20InvalidApprover":
      return "The zero address cannot approve a spender.";
    case "ERC20InvalidSpender":
      return "The zero address cannot be approved as a spender.";
    case "AccessControlUnauthorizedAccount":
      return `The account ${args[0]} does not hold ${role(args[1])}, which this action needs.`;
    case "AccessControlBadConfirmation":
      return "A role can only be renounced by the account that holds it.";
    case "EnforcedPause":
      return "USDX is already paused.";
    case "ExpectedPause":
      return "USDX is not paused.";
    case "InvalidInitialization":
      return "The contract is already initialised.";
    case "NotInitializing":
      return "This function may only run while the contract is being initialised.";
    case "UUPSUnauthorizedCallContext":
      return "Upgrades must go through the proxy, not the implementation.";
    case "UUPSUnsupportedProxiableUUID":
      return "The new implementation is not a compatible UUPS implementation.";
    case "ERC1967InvalidImplementation":
      return `${args[0]} is not a contract and cannot be the implementation.`;
    case "AddressEmptyCode":
      return `${args[0]} has no code: it is not a contract.`;
    case "FailedCall":
      return "A call made during the upgrade failed.";
    case "InvalidAccountNonce":
      return `${args[0]} signed with an old nonce; the current one is ${args[1]}.`;
    case "ERC1967NonPayable":
      return "This upgrade call does not accept ETH.";
    case "BatchPaymentsEmpty":
      return "The batch has no recipients.";
    case "BatchPaymentsLengthMismatch":
      return `The batch has ${args[0]} recipients but ${args[1]} amounts.`;
    case "BatchPaymentsZeroAddress":
      return `Payment ${row(args[0])} of the batch goes to the zero address.`;
    case "BatchPaymentsZeroAmount":
      return `Payment ${row(args[0])} of the batch has an amount of 0.`;
    case "BatchPaymentsTransferFailed":
      return `The token refused payment ${row(args[0])} of the batch.`;
    case "BatchPaymentsInvalidToken":
      return "The batch contract needs a token address.";
    case "Error":
      return String(args[0]);
    case "Panic":
      return `The contract stopped: ${PANIC_REASONS[Number(args[0])] ?? `panic code ${args[0]}`}.`;
    default:
      return `The contract refused the call (${name}).`;
  }
}
