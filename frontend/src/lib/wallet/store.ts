import { create } from "zustand";

/** An EIP-1193 provider: an injected wallet, or the development wallet. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>;
  on?(event: string, listener: (...args: any[]) => void): void;
  removeListener?(event: string, listener: (...args: any[]) => void): void;
}

/** Spec section 3's wallet session, plus which wallet it is. */
export interface WalletState {
  status: "disconnected" | "connecting" | "connected";
  address: string | null;
  chainId: number | null;
  provider: Eip1193Provider | null;
  /** The wallet's name as EIP-6963 announces it, or "Development wallet (alice)". */
  walletName: string | null;
}

export const initialWalletState: WalletState = { status: "disconnected", address: null, chainId: null, provider: null, walletName: null };

export const useWallet = create<WalletState>(() => ({ ...initialWalletState }));
