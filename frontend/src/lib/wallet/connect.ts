import { parseAddress, shortAddress } from "@common/addresses";
import type { AppConfig } from "@/lib/config";
import { notify } from "@/lib/notices";
import { STORAGE_KEYS, writeSetting } from "@/lib/storage";
import { initialWalletState, useWallet, type Eip1193Provider } from "./store";

/**
 * Connecting and disconnecting (PRODUCT.md sections 4 and 8): ask for accounts, move the wallet to the
 * configured chain (adding it on 4902), follow accountsChanged and chainChanged, and raise the
 * spec's toasts. Nothing connects on its own: the remembered flag only marks the last wallet used.
 */

export interface WalletChoice {
  id: string;
  name: string;
  provider: Eip1193Provider;
}

const errorCode = (error: unknown): number | undefined => {
  const e = error as { code?: unknown; data?: { originalError?: { code?: unknown } } } | null;
  const code = e?.data?.originalError?.code ?? e?.code;
  return typeof code === "number" ? code : undefined;
};

const errorMessage = (error: unknown): string | null => {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === "string" && message !== "" ? message : null;
};

export class NetworkSwitchError extends Error {}

/**
 * Moves the wallet to the dashboard's chain. PRODUCT.md section 8's 'Network Error' toasts name the
 * network; 4902 (unknown chain) adds it first.
 */
export async function ensureChain(provider: Eip1193Provider, config: AppConfig): Promise<void> {
  const current = parseInt(String(await provider.request({ method: "eth_chainId" })), 16);
  if (current === config.chainId) return;
  try {
    await provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId: config.chainIdHex }] });
  } catch (error) {
    if (errorCode(error) !== 4902) {
      notify({
        title: "Network Error",
        description: `Could not switch to ${config.networkLabel} network. Please try again.`,
        variant: "destructive",
      });
      throw new NetworkSwitchError(`Could not switch to ${config.networkLabel} network.`);
    }
    try {
      await provider.request({
        method: "wallet_addEthereumChain",
        params: [
          {
            chainId: config.chainIdHex,
            chainName: config.networkLabel,
            nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
            rpcUrls: config.rpcUrl ? [config.rpcUrl] : [],
            blockExplorerUrls: config.explorerUrl ? [config.explorerUrl] : [],
          },
        ],
      });
    } catch {
      notify({
        title: "Network Error",
        description: `Could not switch to ${config.networkLabel} network. Please add it manually.`,
        variant: "destructive",
      });
      throw new NetworkSwitchError(`Could not add the ${config.networkLabel} network.`);
    }
  }
}

let unsubscribe: (() => void) | null = null;

function follow(provider: Eip1193Provider): void {
  unsubscribe?.();
  const onAccounts = (accounts: string[]) => {
    if (!accounts || accounts.length === 0) {
      disconnectWallet();
      return;
    }
    // Queries are keyed by address, so the balance and roles reload for the new account.
    useWallet.setState({ address: parseAddress(accounts[0]) });
  };
  // PRODUCT.md section 4: a chain change reloads the page.
  const onChain = () => window.location.reload();
  provider.on?.("accountsChanged", onAccounts);
  provider.on?.("chainChanged", onChain);
  unsubscribe = () => {
    provider.removeListener?.("accountsChanged", onAccounts);
    provider.removeListener?.("chainChanged", onChain);
    unsubscribe = null;
  };
}

export async function connectWallet(choice: WalletChoice, config: AppConfig): Promise<boolean> {
  useWallet.setState({ status: "connecting" });
  try {
    const accounts = (await choice.provider.request({ method: "eth_requestAccounts" })) as string[];
    if (!accounts || accounts.length === 0) throw new Error("The wallet shared no account.");
    try {
      await ensureChain(choice.provider, config);
    } catch (error) {
      if (!(error instanceof NetworkSwitchError)) throw error;
      // Stay connected on the wrong chain: reads say so, and the transaction runner asks again.
    }
    const chainId = parseInt(String(await choice.provider.request({ method: "eth_chainId" })), 16);
    const address = parseAddress(accounts[0]);
    follow(choice.provider);
    useWallet.setState({ status: "connected", address, chainId, provider: choice.provider, walletId: choice.id, walletName: choice.name });
    writeSetting(STORAGE_KEYS.walletConnected, choice.id);
    notify({ title: "Wallet Connected", description: shortAddress(address) });
    return true;
  } catch (error) {
    useWallet.setState({ ...initialWalletState });
    const description =
      errorCode(error) === 4001
        ? "You rejected the connection request in your wallet."
        : (errorMessage(error) ?? "Failed to connect to wallet");
    notify({ title: "Connection Failed", description, variant: "destructive" });
    return false;
  }
}

/** Clears all wallet state and the remembered flag (PRODUCT.md section 4). */
export function disconnectWallet(): void {
  const { provider } = useWallet.getState();
  unsubscribe?.();
  // Wallets that support it forget the site's permission too; a refusal changes nothing here.
  provider?.request({ method: "wallet_revokePermissions", params: [{ eth_accounts: {} }] }).catch(() => undefined);
  useWallet.setState({ ...initialWalletState });
  writeSetting(STORAGE_KEYS.walletConnected, null);
  notify({ title: "Wallet Disconnected", description: "Your wallet has been disconnected" });
}
