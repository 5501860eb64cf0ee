import { parseAddress } from "@common/addresses";
import { exactTokenAmount, parsePositiveTokenAmount } from "@common/amounts";
import { MAX_UINT256 } from "@common/token";
import { readCsv } from "../../lib/csv";
import type { ParsedRecipients, RecipientProblem } from "@common/apiTypes";

/** The spec's reasons for a bad CSV row, shown under the cell they concern. */
export const INVALID_ADDRESS = "Invalid Ethereum address";
export const INVALID_AMOUNT = "Invalid amount";
export const INVALID_NAME = "Invalid name";
export const INVALID_ROW = "Invalid row";

/** Names longer than this are refused: it is a label in a table, not a document. */
export const MAX_RECIPIENT_NAME = 100;

/** A row that can be paid: checksummed address, amount in base units and as an exact decimal. */
export interface Recipient {
  name: string;
  address: string;
  amount: string;
  amountRaw: bigint;
}

export type RecipientCheck = { ok: true; recipient: Recipient } | { ok: false; problems: RecipientProblem[] };

// Control characters would corrupt a CSV export or a log line, and bidi overrides make a name read as
// another ("Bob\u202Egnp.exe"); a name never needs either (contacts refuse the same). \p{Cc} is the
// C0 and C1 controls, U+0000-U+001F and U+007F-U+009F.
const CONTROL = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

/** The largest amount the token (and BatchPayments' sum) can hold, in base units. */

/** Checks one recipient (a CSV row or an item of an execute request); every problem is reported. */
export function checkRecipient(input: { name?: string; address: string; amount: string }): RecipientCheck {
  const problems: RecipientProblem[] = [];
  const name = (input.name ?? "").trim();
  if (name.length > MAX_RECIPIENT_NAME) {
    problems.push({
      field: "name",
      reason: INVALID_NAME,
      detail: `The name has ${name.length} characters; at most ${MAX_RECIPIENT_NAME}.`,
    });
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

/** POST /api/batch/parse-csv: the recipients of a CSV with a Name, Address, Amount header. */
export function parseRecipientsCsv(csvData: string, maxRows: number): ParsedRecipients {
  const rows = readCsv(csvData, { required: ["address", "amount"], optional: ["name"], maxRows, rowsAre: "recipients" });
  const result: ParsedRecipients = {
    validRecipients: [],
    invalidEntries: [],
    duplicates: [],
    totalRows: rows.length,
    totalAmount: "0",
    totalAmountRaw: "0",
  };
  const linesByAddress = new Map<string, number[]>();
  let total = 0n;
  for (const row of rows) {
    const { name, address, amount } = row.cells as { name: string; address: string; amount: string };
    if (row.problem) {
      result.invalidEntries.push({
        line: row.line,
        reason: INVALID_ROW,
        name,
        address,
        amount,
        errors: [{ field: "row", reason: INVALID_ROW, detail: row.problem }],
      });
      continue;
    }
    const check = checkRecipient({ name, address, amount });
    if (!check.ok) {
      result.invalidEntries.push({ line: row.line, reason: check.problems[0].reason, name, address, amount, errors: check.problems });
      continue;
    }
    const { recipient } = check;
    total += recipient.amountRaw;
    result.validRecipients.push({ line: row.line, name: recipient.name, address: recipient.address, amount: recipient.amount });
    const lines = linesByAddress.get(recipient.address) ?? [];
    lines.push(row.line);
    linesByAddress.set(recipient.address, lines);
  }
  for (const [address, lines] of linesByAddress) if (lines.length > 1) result.duplicates.push({ address, lines });
  result.totalAmount = exactTokenAmount(total);
  result.totalAmountRaw = total.toString();
  return result;
}
