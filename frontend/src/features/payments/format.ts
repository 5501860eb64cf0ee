/** A transaction hash shortened for a table: 0x1234abcd...9f8e. */
export const shortHash = (hash: string) => (hash.length > 18 ? `${hash.slice(0, 10)}...${hash.slice(-6)}` : hash);

/** Whole numbers with thousands separators: '1,128 of 2,500 recipients'. */
export const count = (n: number) => n.toLocaleString("en-US");

/** '1 row', '3 rows', '2 addresses'. */
export const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;
