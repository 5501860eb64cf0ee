import { isValidAddress, parseAddress } from "@common/addresses";
import type { Problem } from "@/lib/validation";
import type { BankWallet } from "./api";

export type WalletCheck =
  { ok: true; value: { name: string; address: string } } | { ok: false; problem: Problem; field: "name" | "address" };

/**
 * PRODUCT.md section 5, Add mock wallet: name and address required ('Missing Information'), the address
 * 0x plus 40 hex characters ('Invalid Address'), not already listed in any letter case ('Duplicate
 * Wallet'). The server checks the same again and its answer is shown when it differs.
 */
export function checkNewWallet(nameInput: string, addressInput: string, existing: BankWallet[]): WalletCheck {
  const name = nameInput.trim();
  const typed = addressInput.trim();
  if (!name || !typed) {
    return {
      ok: false,
      field: name ? "address" : "name",
      problem: { title: "Missing Information", description: "Please provide both the wallet name and address." },
    };
  }
  if (!isValidAddress(typed)) {
    return {
      ok: false,
      field: "address",
      problem: { title: "Invalid Address", description: "Please enter a valid Ethereum address: 0x followed by 40 hex characters." },
    };
  }
  let address: string;
  try {
    address = parseAddress(typed);
  } catch (error) {
    return { ok: false, field: "address", problem: { title: "Invalid Address", description: `${(error as Error).message}.` } };
  }
  const same = existing.find((w) => w.address.toLowerCase() === address.toLowerCase());
  if (same) {
    return {
      ok: false,
      field: "address",
      problem: { title: "Duplicate Wallet", description: `${address} is already in your wallets as '${same.name}'.` },
    };
  }
  return { ok: true, value: { name, address } };
}
