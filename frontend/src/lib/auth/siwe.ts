/**
 * The Sign-In with Ethereum (EIP-4361) message the wallet signs. The server issues the nonce and
 * checks the domain, chain, expiry and signature (PRODUCT.md section 1: not a replayable fixed phrase).
 */

export interface SiweFields {
  /** host[:port] of the page, as the server's DASHBOARD_ORIGIN lists it. */
  domain: string;
  /** The checksummed address. */
  address: string;
  uri: string;
  chainId: number;
  nonce: string;
  issuedAt: Date;
  expiresAt: Date;
}

export const SIWE_STATEMENT = "Sign in to the USDX Dashboard. This request costs nothing and sends no transaction.";

/** EIP-4361's exact layout: one field a line, in this order. */
export function siweMessage(f: SiweFields): string {
  return [
    `${f.domain} wants you to sign in with your Ethereum account:`,
    f.address,
    "",
    SIWE_STATEMENT,
    "",
    `URI: ${f.uri}`,
    "Version: 1",
    `Chain ID: ${f.chainId}`,
    `Nonce: ${f.nonce}`,
    `Issued At: ${f.issuedAt.toISOString()}`,
    `Expiration Time: ${f.expiresAt.toISOString()}`,
  ].join("\n");
}

/** personal_sign takes the message as hex of its UTF-8 bytes. */
export function utf8ToHex(text: string): string {
  let hex = "0x";
  for (const byte of new TextEncoder().encode(text)) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
