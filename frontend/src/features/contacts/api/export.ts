import { apiText, endpointUrl } from "@/lib/api";

/** The file name the server gives in Content-Disposition (it owns the export's name). */
export function attachmentName(header: string | null): string | null {
  const match = header?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  return match ? decodeURIComponent(match[1]) : null;
}

/**
 * GET /api/contacts/export: the contacts as CSV (Name, Address, Notes; the server escapes cells a
 * spreadsheet would run as formulas). `api()` reads JSON, so this reads text with the same auth.
 */
export async function fetchContactsCsv(): Promise<{ text: string; fileName: string }> {
  const { text, headers } = await apiText(endpointUrl("GET /api/contacts/export"));
  return { text, fileName: attachmentName(headers.get("content-disposition")) ?? "contacts.csv" };
}
