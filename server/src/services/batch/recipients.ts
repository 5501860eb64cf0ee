import { exactTokenAmount } from "@common/amounts";
import { checkRecipient, INVALID_ROW } from "@common/recipients";
import { readCsv } from "../../lib/csv";
import type { ParsedRecipients } from "@common/apiTypes";

/**
 * POST /api/batch/parse-csv: the recipients of a CSV with a Name, Address, Amount header, each row
 * checked by the recipient's one rule (common/recipients.ts), which execute's declaration runs too.
 */
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
