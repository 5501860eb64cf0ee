import type { AppConfig } from "@/lib/config";
import { notify, type Notice } from "@/lib/notices";
import { ensureChain, NetworkSwitchError } from "@/lib/wallet/connect";
import { useWallet, type Eip1193Provider } from "@/lib/wallet/store";

/**
 * What every write asks of the wallet before anything is signed, once for the runner, the forms and
 * a batch's permit: a connected wallet ('Wallet not connected' with the purpose line otherwise), on
 * the dashboard's chain (ensureChain asks it to switch, and says so when it will not).
 */

/** PRODUCT.md section 8: 'Wallet not connected', with what the wallet was needed for ('Please connect your wallet to mint tokens'). */
export const walletNotConnected = (purpose: string): Notice & { description: string } => ({
  title: "Wallet not connected",
  description: purpose,
});

export interface SigningWallet {
  provider: Eip1193Provider;
  address: string;
  chainId: number | null;
}

/** The connected wallet that will sign, or null after the 'Wallet not connected' toast. */
export function signingWallet(purpose: string): SigningWallet | null {
  const { status, provider, address, chainId } = useWallet.getState();
  if (status !== "connected" || !provider || !address) {
    notify({ ...walletNotConnected(purpose), variant: "destructive" });
    return null;
  }
  return { provider, address, chainId };
}

/** Moves a wallet on another chain to the dashboard's; throws NetworkSwitchError (already toasted) when it will not go. */
export async function onDashboardChain(wallet: SigningWallet, config: AppConfig): Promise<void> {
  if (wallet.chainId !== config.chainId) await ensureChain(wallet.provider, config);
}

/** The one sentence every write the dry run stopped ends with (dryRun.ts). */
export const NOT_ASKED = "Nothing was sent: your wallet was not asked to sign.";

/**
 * A write stopped by its dry run before the wallet was asked: `refused` when the contract would
 * revert (the message is its reason in words), `unchecked` when the check could not be made.
 */
export class NotSentError extends Error {
  constructor(
    message: string,
    readonly reason: "refused" | "unchecked",
  ) {
    super(message);
    this.name = "NotSentError";
  }
}

/**
 * Just before the wallet is asked to send: its chain, read again. The dry run can take seconds, and
 * a person who moves the wallet to another network meanwhile would otherwise sign on that network
 * (a wallet that does not report the change, or a page that has not reloaded yet). Throws
 * NotSentError, with what to do, when it is no longer the dashboard's chain.
 */
export async function stillOnDashboardChain(wallet: SigningWallet, config: AppConfig): Promise<void> {
  const now = parseInt(String(await wallet.provider.request({ method: "eth_chainId" })), 16);
  if (now === config.chainId) return;
  throw new NotSentError(
    `Your wallet switched to another network while the transaction was being checked: switch back to ${config.networkLabel} and try again. ${NOT_ASKED}`,
    "unchecked",
  );
}

/**
 * A write that failed, in words: the contract's custom error or the wallet's refusal
 * (common/contractErrors.ts); `told` when the person has been told already (the 'Network Error' toast).
 * The words load with the first failure: they carry ethers and every ABI, which a page that only
 * reads should not download.
 */
export async function writeFailure(error: unknown): Promise<{ message: string; told: boolean }> {
  if (error instanceof NetworkSwitchError) return { message: error.message, told: true };
  // The dry run's words are final: the contract's reason (or why it could not be checked) and that nothing was asked.
  if (error instanceof NotSentError) return { message: error.message, told: false };
  const { describeError } = await import("@common/contractErrors");
  return { message: describeError(error), told: false };
}
