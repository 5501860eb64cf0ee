/**
 * Stands in for @adraffy/ens-normalize in the dashboard's bundle (vite.config.mts aliases it).
 * ethers calls it only to resolve an ENS name, and the dashboard takes addresses alone (0x and 40
 * hex digits, PRODUCT.md section 5), so it never does; the real package is mostly Unicode tables,
 * about 25 KB gzipped that every page reading the chain would download for nothing.
 */
export function ens_normalize(name: string): string {
  throw new Error(`ENS names are not supported by the dashboard: use an address instead of ${JSON.stringify(name)}.`);
}
