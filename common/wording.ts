/**
 * How every part of the product words a number of things, a count, and a shortened hash or address:
 * the dashboard, the server and the scripts say '1 row' and '1,128 recipients' the same way. No
 * imports: the dashboard bundles it, the server and the scripts run it under Node.
 */

/** Whole numbers with thousands separators, the same in every locale: '1,128 of 2,500 recipients'. */
export const count = (n: number): string => n.toLocaleString("en-US");

/** The count and the word, singular for exactly one: '1 row', '3 rows', '2 addresses' (`pluralWord` when adding an s is wrong). */
export const plural = (n: number, word: string, pluralWord = `${word}s`): string => `${count(n)} ${n === 1 ? word : pluralWord}`;

/** A transaction hash shortened for a table: 0x1234abcd...9f8e; a string of 18 characters or fewer stays whole. */
export const shortHash = (hash: string): string => (hash.length > 18 ? `${hash.slice(0, 10)}...${hash.slice(-6)}` : hash);

/** First 6 characters, an ellipsis, last 4 (PRODUCT.md section 9); 10 characters or fewer stay whole; empty gives empty. */
export function shortAddress(address: string): string {
  if (!address) return "";
  return address.length <= 10 ? address : `${address.slice(0, 6)}...${address.slice(-4)}`;
}
