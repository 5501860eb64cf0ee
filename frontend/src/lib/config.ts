import { useContext, createContext } from "react";
import { groupDigits } from "./format";

/** What GET /api/config answers: the one source of addresses and settings for the dashboard. */
export interface AppConfig {
  network: "localhost" | "sepolia";
  chainId: number;
  chainIdHex: string;
  networkLabel: string;
  /** Set when the local chain is a fork of another (npm start -- --fork): the chain forked and the block. */
  fork: { chainId: number; name: string; block: number } | null;
  /** Sepolia's block explorer; null on the local chain (the dashboard shows its own transaction view). */
  explorerUrl: string | null;
  /** Where the dashboard may read the chain; null means through the wallet. */
  rpcUrl: string | null;
  contracts: { proxy: string; implementation: string; owner: string; batchPayments: string; deploymentBlock: number };
  token: { decimals: number };
  firebase: { projectId: string; apiKey: string; authDomain: string; emulatorUrl: string | null };
  batch: { maxRows: number; chunkSize: number };
  /** Blocks on top of a transaction's before it counts as final (0 on the local chain, 5 on Sepolia). */
  confirmations: number;
  mockBank: boolean;
  /** The development wallet's accounts (local chain only). */
  devAccounts: { name: string; address: string; roles: string[]; description: string }[] | null;
}

/** The network badge's words: 'Sepolia fork @ 7,012,345' on a fork, else the network's label. */
export function networkBadgeLabel(config: Pick<AppConfig, "networkLabel" | "fork">): string {
  return config.fork ? `${config.fork.name} fork @ ${groupDigits(String(config.fork.block))}` : config.networkLabel;
}

/** Reads the configuration from the API server; throws a sentence when it cannot. */
export async function fetchConfig(fetcher: typeof fetch = fetch): Promise<AppConfig> {
  let res: Response;
  try {
    res = await fetcher("/api/config");
  } catch {
    throw new Error("The USDX API server is not answering. Start it with npm start, then reload this page.");
  }
  if (!res.ok) throw new Error(`The USDX API server answered ${res.status} for its configuration.`);
  return (await res.json()) as AppConfig;
}

export const ConfigContext = createContext<AppConfig | null>(null);

/** The dashboard's configuration; the app renders only once it is loaded. */
export function useConfig(): AppConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error("useConfig outside ConfigContext: render inside <ConfigContext.Provider>.");
  return config;
}
