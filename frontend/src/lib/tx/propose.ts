import { useCallback, useContext } from "react";
import { QueryClientContext, type QueryClient } from "@tanstack/react-query";
import { plural } from "@common/wording";
import { ApiError, call } from "@/lib/api";
import { chainKeys } from "@/lib/chain/queries";
import { ConfigContext, type AppConfig } from "@/lib/config";
import { notify } from "@/lib/notices";
import { safeLabel, safesKey, type SafeInfo } from "@/lib/safes";
import { dryRun } from "./dryRun";
import type { TxOutcome, TxRequest } from "./runner";
import { NotSentError, onDashboardChain, signingWallet, writeFailure } from "./wallet";

/**
 * A write proposed to a Safe instead of sent: the form's one call, dry-run as the Safe calling the
 * token (so the contract's refusal is named before anything is signed, as for a transaction), then
 * the SafeTx of that call at the Safe's next free nonce, signed by the wallet as one owner
 * (eth_signTypedData_v4) and stored by the server (POST /api/safes/:safe/proposals). Nothing goes
 * on chain: the other owners approve it on the Approvals screen, and one of them executes it.
 */
export async function proposeTransaction(
  request: TxRequest,
  safe: SafeInfo,
  config: AppConfig,
  queryClient: QueryClient,
): Promise<TxOutcome> {
  const wallet = signingWallet(request.notConnected);
  if (!wallet) return { ok: false, hash: null, error: "Wallet not connected" };
  const label = safeLabel(safe);
  try {
    const checked = await dryRun(request.call, config, wallet, safe.address);
    const { to, data } = await checked.populate();
    // The list on screen may be minutes old: the nonce is asked afresh, so two proposals made a
    // while apart do not claim the same one.
    const fresh = (await call("GET /api/safes")).safes.find((s) => s.address.toLowerCase() === safe.address.toLowerCase()) ?? safe;
    const { plainSafeTx } = await import("@common/safe");
    const tx = plainSafeTx(to, data, fresh.nextNonce);
    // The signature names the chain: a wallet on another one would sign for the wrong domain, or refuse.
    await onDashboardChain(wallet, config);
    const { signSafeTx } = await import("@/lib/chain/contracts");
    const signature = await signSafeTx(config, wallet.provider, wallet.address, safe.address, tx);
    const { proposal } = await call("POST /api/safes/:safe/proposals", { params: { safe: safe.address }, body: { tx, signature } });
    notify({ title: `Proposed to ${label}`, description: awaiting(proposal.threshold - proposal.confirmations) });
    void queryClient.invalidateQueries({ queryKey: safesKey });
    return { ok: true, hash: null, error: null };
  } catch (error) {
    const failure = await writeFailure(error);
    // The server's refusal is its own sentence ('This nonce is already taken...'), not 'status: sentence'.
    const message = error instanceof ApiError ? error.sentence : failure.message;
    if (failure.told) return { ok: false, hash: null, error: message };
    // As for a transaction: the chain refused what the page thought would pass, so its view is stale.
    if (error instanceof NotSentError && error.reason === "refused") {
      void queryClient.invalidateQueries({ queryKey: chainKeys.all });
      void queryClient.invalidateQueries({ queryKey: safesKey });
    }
    notify({ title: `Could not propose to ${label}`, description: message, variant: "destructive" });
    return { ok: false, hash: null, error: message };
  }
}

/** 'Awaiting 1 more approval'; once the threshold is met, where to go next. */
export function awaiting(missing: number): string {
  return missing > 0 ? `Awaiting ${plural(missing, "more approval", "more approvals")}` : "Ready to execute on the Approvals screen";
}

/**
 * The proposer for components, for the Safe a form proposes to. Every form runner asks for one, so
 * this reads the configuration and the query client without requiring them (a form tested alone
 * has neither): only a form under a Safe ever calls it, and there both are present.
 */
export function useProposer(safe: SafeInfo | null): (request: TxRequest) => Promise<TxOutcome> {
  const config = useContext(ConfigContext);
  const queryClient = useContext(QueryClientContext);
  return useCallback(
    (request: TxRequest) => {
      if (!safe || !config || !queryClient) throw new Error("useProposer: a proposal needs a Safe, the configuration and a query client");
      return proposeTransaction(request, safe, config, queryClient);
    },
    [safe, config, queryClient],
  );
}
