import type { AppConfig } from "@/lib/config";

/**
 * Where a transaction, block or address link goes: Sepolia's explorer on Sepolia, the dashboard's
 * own views on the local chain (which has no explorer).
 */
export function txUrl(config: AppConfig, hash: string): string {
  return config.explorerUrl ? `${config.explorerUrl}/tx/${hash}` : `/tx/${hash}`;
}

export function blockUrl(config: AppConfig, block: number | string): string {
  return config.explorerUrl ? `${config.explorerUrl}/block/${block}` : `/block/${block}`;
}

export function addressUrl(config: AppConfig, address: string): string {
  return config.explorerUrl ? `${config.explorerUrl}/address/${address}` : `/transactions?address=${address}`;
}

/** Explorer links open in a new tab; the dashboard's own views stay in this one. */
export function isExternal(config: AppConfig): boolean {
  return config.explorerUrl !== null;
}
