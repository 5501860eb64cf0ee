import { z } from "zod";

/**
 * Small schemas the API's declarations share. Answers are strict objects: a field the server
 * sends that is not declared fails the server suite's answer check (server/test/helpers.ts), so
 * the document cannot fall behind the code.
 */

export const Address = z.string().meta({
  description: "An Ethereum address: 0x and 40 hex characters, checksummed (EIP-55).",
  example: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
});
export const TxHash = z.string().meta({
  description: "A transaction hash: 0x and 64 hex characters.",
  example: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
});
export const Bytes32 = z.string().meta({ description: "32 bytes as 0x and 64 hex characters." });
export const IsoDate = z.string().meta({ description: "A moment in ISO 8601, UTC.", example: "2026-11-25T09:30:00.000Z" });
export const BaseUnits = z.string().meta({
  description: "A whole number of base units (18 decimals) as a decimal string: it can exceed JavaScript's numbers.",
  example: "1500000000000000000",
});
export const TokenAmount = z.string().meta({ description: "USDX as an exact decimal string.", example: "1.5" });
export const Dollars = z.string().meta({ description: "US dollars with 2 decimals and thousands separators.", example: "1,000.00" });
export const BlockNumber = z.number().int().min(0).meta({ example: 1234 });
export const UnixSeconds = z.number().int().meta({ description: "Unix time in seconds.", example: 1764063000 });

/** The largest id a table's serial column holds (a Postgres integer): a larger one is refused as input, not by the database. */
export const MAX_SERIAL_ID = 2_147_483_647;

/** `{ success: true, ...fields }`: the envelope of most answers. */
export const ok = <T extends z.ZodRawShape>(fields: T) => z.strictObject({ success: z.literal(true), ...fields });
