import { create } from "zustand";
import { readSetting, STORAGE_KEYS, writeSetting } from "@/lib/storage";

/** Settings' Custom RPC URL (kept in local storage): where reads go instead of the configured RPC. */
interface RpcSetting {
  customRpcUrl: string | null;
  setCustomRpcUrl(url: string | null): void;
}

export const useRpcSetting = create<RpcSetting>((set) => ({
  customRpcUrl: readSetting(STORAGE_KEYS.customRpcUrl),
  setCustomRpcUrl(url) {
    writeSetting(STORAGE_KEYS.customRpcUrl, url);
    set({ customRpcUrl: url });
  },
}));
