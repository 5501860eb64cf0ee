/**
 * PRODUCT.md section 3's stored settings, under its 'xft_' prefix. Firebase keeps the sign-in tokens
 * itself (IndexedDB), so no ID or refresh token is written here.
 */
export const STORAGE_KEYS = {
  /** The remembered-connection flag: the id of the wallet last connected (no auto-connect). */
  walletConnected: "xft_wallet_connected",
  /** Settings' Custom RPC URL: where the dashboard reads the chain instead of the default. */
  customRpcUrl: "xft_custom_rpc_url",
} as const;

export function readSetting(key: (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS]): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage blocked (private mode): behave as if nothing was saved
  }
}

export function writeSetting(key: (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS], value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    /* storage blocked: the setting lasts for this page only */
  }
}
