import type { AppConfig } from "@/lib/config";
import { createDevWallet, type DevWalletProvider } from "./devWallet";

let instance: DevWalletProvider | null = null;

/** The development wallet acting as `address`; null off the local chain (it is never offered there). */
export function devWalletFor(config: AppConfig, address: string): DevWalletProvider | null {
  if (config.network !== "localhost" || !config.rpcUrl) return null;
  if (!instance) instance = createDevWallet(config.rpcUrl, address);
  else instance.setAccount(address);
  return instance;
}

export function isDevWallet(provider: unknown): provider is DevWalletProvider {
  return typeof provider === "object" && provider !== null && (provider as { isDevWallet?: unknown }).isDevWallet === true;
}
