import { getAddress } from "ethers";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

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
  try {
    return getAddress(text);
  } catch {
    throw new Error(`'${input}' has a wrong checksum (mixed upper and lower case that does not match): check it for a typo`);
  }
}

/** First 6 characters, an ellipsis, last 4 (spec section 9); empty gives empty. */
export function shortAddress(address: string): string {
  if (!address) return "";
  return address.length <= 10 ? address : `${address.slice(0, 6)}...${address.slice(-4)}`;
}
