import { create } from "zustand";

/** PRODUCT.md section 3's transaction modal state, plus what the transaction does and how deep it is. */
export interface TxModalState {
  isOpen: boolean;
  /**
   * checking: the dry run against the latest block, before the wallet is asked; pending: in the
   * wallet, or sent and not yet mined; confirming: mined, with fewer blocks on top than the
   * network's confirmations (Sepolia only: on the local chain mined is final); not-sent: stopped
   * by the dry run (the contract would refuse, or the check could not be made), nothing signed.
   */
  status: "checking" | "pending" | "confirming" | "success" | "error" | "not-sent";
  errorMessage: string | null;
  transactionHash: string | null;
  /** 'Mint 100 USDX to 0x12...' */
  action: string | null;
  /** While confirming: the block that holds it, and blocks on top of it out of those needed. */
  confirmations: { block: number; seen: number; needed: number } | null;
}

const closed: TxModalState = {
  isOpen: false,
  status: "pending",
  errorMessage: null,
  transactionHash: null,
  action: null,
  confirmations: null,
};

export const useTxModal = create<TxModalState & { hide(): void }>((set) => ({
  ...closed,
  // PRODUCT.md section 4: hiding resets it to pending without message or hash.
  hide: () => set({ ...closed }),
}));
