import { utf8ToHex } from "@/lib/auth/siwe";
import { shortAddress } from "@/lib/format";
import { useWallet } from "@/lib/wallet/store";
import { requestWalletChallenge, type WalletProof } from "../api";

/** Why a wallet could not be proved, as a sentence for the screen. */
export class ProofProblem extends Error {}

/** True when `address` is the wallet connected right now (so it can sign for itself). */
export function isConnectedWallet(address: string): boolean {
  const { status, address: connected } = useWallet.getState();
  return status === "connected" && connected !== null && connected.toLowerCase() === address.toLowerCase();
}

/**
 * Proves the user controls `address`: asks the server for a single-use challenge naming the
 * dashboard, the user and the address, and has the connected wallet sign it (personal_sign, as the
 * wallet sign-in does). The server checks the signature; nothing here is trusted on its own.
 */
export async function proveWallet(address: string): Promise<WalletProof> {
  const { provider, address: connected } = useWallet.getState();
  if (!provider || !connected || !isConnectedWallet(address)) {
    throw new ProofProblem(
      `Connect ${shortAddress(address)} in your wallet to sign for it: the test faucet mints only to wallets you prove you control.`,
    );
  }
  const issued = await requestWalletChallenge(address);
  try {
    const signature = (await provider.request({ method: "personal_sign", params: [utf8ToHex(issued.message), connected] })) as string;
    return { challenge: issued.challenge, signature };
  } catch (error) {
    if ((error as { code?: unknown }).code === 4001)
      throw new ProofProblem("You rejected the signature request in your wallet, so the wallet was not verified.");
    throw new ProofProblem(`Your wallet did not sign the request: ${(error as Error).message || "unknown error"}.`);
  }
}
