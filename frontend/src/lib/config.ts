import { useContext, createContext } from "react";
import type { DashboardConfig } from "@common/api/configuration";
import { groupDigits } from "./format";

/** What GET /api/config answers (declared in common/api/configuration.ts): the one source of addresses and settings for the dashboard. */
export type AppConfig = DashboardConfig;

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
