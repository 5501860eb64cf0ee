import { create } from "zustand";
import type { Eip1193Provider } from "./store";

/** EIP-6963: injected wallets announce themselves; several can live side by side. */
export interface Eip6963ProviderInfo {
  uuid: string;
  name: string;
  icon: string;
  rdns: string;
}

export interface InjectedWallet {
  /** The remembered-connection flag stores this: the wallet's rdns, or 'injected' for window.ethereum. */
  id: string;
  name: string;
  icon: string | null;
  provider: Eip1193Provider;
}

interface DiscoveryState {
  announced: InjectedWallet[];
}

export const useDiscoveredWallets = create<DiscoveryState>(() => ({ announced: [] }));

let started = false;

/** Listens for announcements and asks the wallets to announce themselves (call once at start). */
export function startWalletDiscovery(): void {
  if (started || typeof window === "undefined") return;
  started = true;
  window.addEventListener("eip6963:announceProvider", (event: Event) => {
    const detail = (event as CustomEvent<{ info: Eip6963ProviderInfo; provider: Eip1193Provider }>).detail;
    if (!detail?.info || !detail.provider) return;
    const wallet: InjectedWallet = {
      id: detail.info.rdns || detail.info.uuid,
      name: detail.info.name,
      icon: detail.info.icon || null,
      provider: detail.provider,
    };
    useDiscoveredWallets.setState((s) => ({ announced: [...s.announced.filter((w) => w.id !== wallet.id), wallet] }));
  });
  window.dispatchEvent(new Event("eip6963:requestProvider"));
}

/** The injected wallets: EIP-6963 announcements, else window.ethereum as the fallback. */
export function injectedWallets(announced: InjectedWallet[] = useDiscoveredWallets.getState().announced): InjectedWallet[] {
  if (announced.length > 0) return announced;
  const legacy = (window as unknown as { ethereum?: Eip1193Provider & { isMetaMask?: boolean } }).ethereum;
  if (!legacy) return [];
  return [{ id: "injected", name: legacy.isMetaMask ? "MetaMask" : "Browser wallet", icon: null, provider: legacy }];
}
