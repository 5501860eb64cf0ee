import { apiText } from "@/lib/api";
import { contactsKey } from "./contacts";

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
  const { text, headers } = await apiText(`${contactsKey[0]}/export`);
  return { text, fileName: attachmentName(headers.get("content-disposition")) ?? "contacts.csv" };
}

/** Saves `text` as a file through a temporary download link. */
export function saveTextFile(text: string, fileName: string, type = "text/csv;charset=utf-8"): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Some browsers start the download after click() returns; free the blob once they have it.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
