import { apiFile, endpointUrl } from "@/lib/api";

/**
 * GET /api/contacts/export: the contacts as CSV (Name, Address, Notes; the server escapes cells a
 * spreadsheet would run as formulas).
 */
export function fetchContactsCsv(): Promise<{ text: string; fileName: string }> {
  return apiFile(endpointUrl("GET /api/contacts/export"), "contacts.csv");
}
