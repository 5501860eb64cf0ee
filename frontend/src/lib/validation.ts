import { parseTokenAmount } from "@common/amounts";
import { isValidAddress, parseAddress } from "@common/addresses";
import { parseRoleName, type RoleName } from "@common/roles";
import { isMultiplierArgument, MAX_UINT256 } from "@common/token";

/**
 * PRODUCT.md section 5's rules for the forms of these screens. Each check answers the value it parsed,
 * or the toast the spec names ({title, description}) for the first rule broken.
 */
export interface Problem {
  title: string;
  description: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: Problem };

const fail = (title: string, description: string): { ok: false; problem: Problem } => ({ ok: false, problem: { title, description } });

/** What the contract's uint256 arguments hold: an amount or multiplier above it could only fail to encode. */

/** 0x followed by exactly 40 hex characters; the answer is checksummed. A mixed-case typo is caught. */
export function checkAddress(input: string): Checked<string> {
  if (!isValidAddress(input)) return fail("Invalid address", "Please enter a valid Ethereum address");
  try {
    return { ok: true, value: parseAddress(input) };
  } catch (error) {
    return fail("Invalid address", (error as Error).message);
  }
}

/** A number greater than 0 with at most 18 decimals, parsed exactly (no floating point). */
export function checkAmount(input: string): Checked<bigint> {
  let value: bigint;
  try {
    value = parseTokenAmount(input);
  } catch {
    return fail("Invalid amount", "Please enter a valid amount greater than 0");
  }
  if (value === 0n || value > MAX_UINT256) return fail("Invalid amount", "Please enter a valid amount greater than 0");
  return { ok: true, value };
}

/** Transfer: also not above the balance ('You only have {balance} USDX available'). */
export function checkTransferAmount(input: string, balance: bigint, shownBalance: string): Checked<bigint> {
  const amount = checkAmount(input);
  if (!amount.ok) return amount;
  if (amount.value > balance) return fail("Insufficient balance", `You only have ${shownBalance} USDX available`);
  return amount;
}

/**
 * The multiplier forms: a positive number the contract can take ('Invalid value'). A set below 1.0
 * passes: the dialog says the contract will refuse it, and the contract does, in words.
 */
export function checkMultiplier(input: string): Checked<bigint> {
  try {
    const value = parseTokenAmount(input);
    if (isMultiplierArgument(value)) return { ok: true, value };
  } catch {
    /* falls through to the spec's message */
  }
  return fail("Invalid value", "Please enter a valid positive number");
}

/** Role names must be among the known roles, else 'Invalid role: {role}'. */
export function checkRole(input: string): Checked<RoleName> {
  // Role names are ASCII; upper-casing would turn a dotless 'ı' or a long 'ſ' into I and S and name a real role.
  if (!/^[\x20-\x7e]*$/.test(input)) return fail("Invalid role", `Invalid role: ${input}`);
  try {
    return { ok: true, value: parseRoleName(input) };
  } catch (error) {
    return fail("Invalid role", (error as Error).message);
  }
}
