import { ADDRESS_TYPED, parseAddress } from "./addresses";
import { exactTokenAmount, parsePositiveTokenAmount, POSITIVE_TOKEN_AMOUNT_TYPED } from "./amounts";
import { MAX_UINT256 } from "./token";

/**
 * A batch payment's recipient (PRODUCT.md section 5): the one rule for a row of an uploaded CSV
 * (server/src/services/batch/recipients.ts) and for each recipient of a batch the API starts (its
 * declaration, common/api/batchInput.ts, which states the patterns below in the OpenAPI document).
 * No zod here: the dashboard may read it at run time.
 */

/** The spec's reasons for a bad CSV row, shown under the cell they concern. */
export const INVALID_ADDRESS = "Invalid Ethereum address";
export const INVALID_AMOUNT = "Invalid amount";
export const INVALID_NAME = "Invalid name";
export const INVALID_ROW = "Invalid row";

/** Names longer than this, in characters (code points: an emoji is one), are refused: it is a label in a table, not a document. */
export const MAX_RECIPIENT_NAME = 100;

// Control characters would corrupt a CSV export or a log line, and bidi overrides make a name read as
// another ("Bob\u202Egnp.exe"); a name never needs either (contacts refuse the same). \p{Cc} is the
// C0 and C1 controls, U+0000-U+001F and U+007F-U+009F.
const CONTROL = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;
const ALLOWED = String.raw`[^\p{Cc}\u202A-\u202E\u2066-\u2069]`;
const ALLOWED_NOT_SPACE = String.raw`[^\s\p{Cc}\u202A-\u202E\u2066-\u2069]`;

/**
 * Each field's text as the rule takes it, surrounding spaces allowed: a name of at most
 * MAX_RECIPIENT_NAME characters once trimmed, with no control or text-direction character in it
 * (empty is no name); an address of 0x and 40 hex characters (its checksum, a keccak-256, is beyond
 * a pattern); an amount of USDX above 0 with at most 18 decimals (at most 2^256 - 1 base units, beyond
 * a pattern too).
 */
export const RECIPIENT_TYPED = {
  name: new RegExp(`^\\s*(?:${ALLOWED_NOT_SPACE}(?:${ALLOWED}{0,${MAX_RECIPIENT_NAME - 2}}${ALLOWED_NOT_SPACE})?)?\\s*$`, "u"),
  address: ADDRESS_TYPED,
  amount: POSITIVE_TOKEN_AMOUNT_TYPED,
} as const;

/** A recipient that can be paid: checksummed address, amount in base units and as an exact decimal. */
export interface Recipient {
  name: string;
  address: string;
  amount: string;
  amountRaw: bigint;
}

/** A problem with one cell, in the spec's reason and the detail a person fixing the file needs. */
export interface RecipientCellProblem {
  field: "name" | "address" | "amount";
  reason: string;
  detail: string;
}

export type RecipientCheck = { ok: true; recipient: Recipient } | { ok: false; problems: RecipientCellProblem[] };

/** Checks one recipient (a CSV row or an item of a batch to start); every problem is reported. */
export function checkRecipient(input: { name?: string; address: string; amount: string }): RecipientCheck {
  const problems: RecipientCellProblem[] = [];
  const name = (input.name ?? "").trim();
  const length = Array.from(name).length;
  if (length > MAX_RECIPIENT_NAME) {
    problems.push({ field: "name", reason: INVALID_NAME, detail: `The name has ${length} characters; at most ${MAX_RECIPIENT_NAME}.` });
  } else if (CONTROL.test(name)) {
    problems.push({ field: "name", reason: INVALID_NAME, detail: "The name contains control or text-direction characters." });
  }
  let address = "";
  try {
    address = parseAddress(input.address);
  } catch (error) {
    const detail = input.address.trim() === "" ? "The address is empty." : `${(error as Error).message}.`;
    problems.push({ field: "address", reason: INVALID_ADDRESS, detail });
  }
  let amountRaw = 0n;
  try {
    amountRaw = parsePositiveTokenAmount(input.amount);
    if (amountRaw > MAX_UINT256) throw new Error("The amount is larger than any USDX amount can be (2^256 - 1 base units)");
  } catch (error) {
    problems.push({ field: "amount", reason: INVALID_AMOUNT, detail: `${(error as Error).message}.` });
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, recipient: { name, address, amount: exactTokenAmount(amountRaw), amountRaw } };
}

/** Whether a problem is one RECIPIENT_TYPED states (else it is the checksum or the uint256 bound, stated in words). */
export const statedByPattern = (problem: RecipientCellProblem, input: { name?: string; address: string; amount: string }) =>
  !RECIPIENT_TYPED[problem.field].test(input[problem.field] ?? "");

/** A batch's refusal for its invalid recipients (numbered from 1), naming the first five. */
export function invalidRecipientsSentence(problems: string[]): string {
  const shown = problems.slice(0, 5).join("; ");
  return `The batch has invalid recipients, so nothing was started: ${shown}${problems.length > 5 ? `; and ${problems.length - 5} more` : ""}.`;
}
