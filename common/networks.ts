/**
 * The networks USDX runs on. Every chain id, RPC default and explorer address lives here.
 */
export interface ChainInfo {
  /** The name Hardhat, the manifest file and the dashboard use. */
  readonly network: "localhost" | "sepolia";
  readonly chainId: number;
  /** What the dashboard shows (spec: 'Sepolia' is the default label). */
  readonly label: string;
  /** Where to see a transaction; the local chain has none (the dashboard shows its own view). */
  readonly explorerUrl: string | null;
}

export const LOCAL_CHAIN: ChainInfo = {
  network: "localhost",
  chainId: 31337,
  label: "Hardhat Local",
  explorerUrl: null,
};

export const SEPOLIA: ChainInfo = {
  network: "sepolia",
  chainId: 11155111,
  label: "Sepolia",
  explorerUrl: "https://sepolia.etherscan.io",
};

export const CHAINS: readonly ChainInfo[] = [LOCAL_CHAIN, SEPOLIA];

/** The chain id as a wallet wants it (0xaa36a7 for Sepolia). */
export function chainIdHex(chainId: number): string {
  return "0x" + chainId.toString(16);
}

export function chainById(chainId: number): ChainInfo | undefined {
  return CHAINS.find((c) => c.chainId === chainId);
}

/**
 * Chain ids of mainnets: Ethereum and the common L2s and L1s. Nothing that mints from a server key
 * (the mock bank) may run on one of these, whatever the settings say.
 */
export const MAINNET_CHAINS: ReadonlyMap<number, string> = new Map([
  [1, "Ethereum mainnet"],
  [10, "OP Mainnet"],
  [25, "Cronos"],
  [56, "BNB Smart Chain"],
  [100, "Gnosis"],
  [130, "Unichain"],
  [137, "Polygon PoS"],
  [250, "Fantom Opera"],
  [252, "Fraxtal"],
  [288, "Boba"],
  [324, "zkSync Era"],
  [480, "World Chain"],
  [1088, "Metis Andromeda"],
  [1101, "Polygon zkEVM"],
  [1284, "Moonbeam"],
  [1329, "Sei"],
  [2222, "Kava"],
  [5000, "Mantle"],
  [7777777, "Zora"],
  [8453, "Base"],
  [34443, "Mode"],
  [42161, "Arbitrum One"],
  [42170, "Arbitrum Nova"],
  [42220, "Celo"],
  [43114, "Avalanche C-Chain"],
  [59144, "Linea"],
  [81457, "Blast"],
  [167000, "Taiko"],
  [534352, "Scroll"],
]);

export function isMainnet(chainId: number): boolean {
  return MAINNET_CHAINS.has(chainId);
}

/** 'chain 1 (Ethereum mainnet)', or 'chain 11155111' for one that is not a known mainnet. */
export function describeChain(chainId: number): string {
  const name = MAINNET_CHAINS.get(chainId) ?? chainById(chainId)?.label;
  return name ? `chain ${chainId} (${name})` : `chain ${chainId}`;
}

export const LOCAL_RPC_HOST = "127.0.0.1";
export const DEFAULT_LOCAL_RPC_PORT = 8545;

/** The API server's port where `npm start` runs it, unless SERVER_PORT says another. */
export const DEFAULT_SERVER_PORT = 3001;

/** The local API server's URL, as `npm start` runs it: http://127.0.0.1:SERVER_PORT. */
export function localApiUrl(env: NodeJS.ProcessEnv = process.env): string {
  return `http://${LOCAL_RPC_HOST}:${envPort("SERVER_PORT", DEFAULT_SERVER_PORT, env)}`;
}

/** A port from the environment variable `name`, or `fallback` when it is unset or empty. */
export function envPort(name: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${name} must be a port number (1-65535), not '${raw}'.`);
  }
  return port;
}

/** The local node's port: LOCAL_RPC_PORT, or 8545. */
export function localRpcPort(env: NodeJS.ProcessEnv = process.env): number {
  return envPort("LOCAL_RPC_PORT", DEFAULT_LOCAL_RPC_PORT, env);
}

export function localRpcUrl(env: NodeJS.ProcessEnv = process.env): string {
  return `http://${LOCAL_RPC_HOST}:${localRpcPort(env)}`;
}
