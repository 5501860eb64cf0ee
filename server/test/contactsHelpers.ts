/** What the contacts test files (contacts.test.ts, contacts.csv.test.ts) share: addresses, sentences, calls. */
import { eq } from "drizzle-orm";
import { contacts } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { call } from "./helpers";

// EIP-55's own examples: checksummed, and the same in lower and upper case.
export const A = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
export const B = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
export const C = "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB";
export const D = "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb";
export const lower = (address: string) => address.toLowerCase();
export const upper = (address: string) => `0x${address.slice(2).toUpperCase()}`;
/** A checksummed address with one letter's case flipped: the right hex, the wrong checksum. */
export const badChecksum = `${A.slice(0, -1)}D`;

export const MISSING = "Missing information - Please provide both name and address";
export const INVALID = "Invalid address - Please enter a valid Ethereum address";
export const NOT_FOUND = "Contact not found - It may have been deleted";

/** The contacts routes on the server `server()` returns (read at each call: a file's `before` starts it). */
export function contactCalls(server: () => RunningServer) {
  /** What the database holds for `uid`, in insertion order. */
  const stored = (uid: string) => server().services.db.db.select().from(contacts).where(eq(contacts.uid, uid)).orderBy(contacts.id);
  const list = (token: string, query = "") => call(server(), "GET", `/api/contacts${query}`, { token });
  const add = (token: string, body: unknown) => call(server(), "POST", "/api/contacts", { token, body });
  const importCsv = (token: string, csvData: unknown) => call(server(), "POST", "/api/contacts/import", { token, body: { csvData } });
  return { stored, list, add, importCsv };
}
