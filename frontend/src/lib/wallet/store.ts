import { create } from "zustand";

/** The EIP-1193 events the dashboard listens to, and what each hands its listener. */
export interface Eip1193Events {
  accountsChanged: (accounts: string[]) => void;
  chainChanged: (chainId: string) => void;
}

/** An EIP-1193 provider: an injected wallet, or the development wallet. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>;
  on?<E extends keyof Eip1193Events>(event: E, listener: Eip1193Events[E]): void;
  removeListener?<E extends keyof Eip1193Events>(event: E, listener: Eip1193Events[E]): void;
}

/** PRODUCT.md section 3's wallet session, plus which wallet it is. */
export interface WalletState {
  status: "disconnected" | "connecting" | "connected";
  /** Checksummed. */
  address: string | null;
  chainId: number | null;
  provider: Eip1193Provider | null;
  /** The wallet's id (EIP-6963 rdns, 'injected', or 'dev') and name as it announces itself. */
  walletId: string | null;
  walletName: string | null;
}

export const initialWalletState: WalletState = {
  status: "disconnected",
  address: null,
  chainId: null,
  provider: null,
  walletId: null,
  walletName: null,
};

export const useWallet = create<WalletState>(() => ({ ...initialWalletState }));

/** Connected, and on the chain the dashboard is configured for. */
export function isReady(state: WalletState, chainId: number): boolean {
  return state.status === "connected" && state.address !== null && state.chainId === chainId;
}
