import { create } from "zustand";

/** Spec section 3's transaction modal state, plus what the transaction does. */
export interface TxModalState {
  isOpen: boolean;
  status: "pending" | "success" | "error";
  errorMessage: string | null;
  transactionHash: string | null;
  /** 'Mint 100 USDX to 0x12...' */
  action: string | null;
}

const closed: TxModalState = { isOpen: false, status: "pending", errorMessage: null, transactionHash: null, action: null };

export const useTxModal = create<TxModalState & { hide(): void }>((set) => ({
  ...closed,
  // Spec section 4: hiding resets it to pending without message or hash.
  hide: () => set({ ...closed }),
}));
