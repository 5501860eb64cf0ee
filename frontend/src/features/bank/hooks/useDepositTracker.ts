import { useCallback, useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { chainKeys } from "@/lib/chain/queries";
import { INDEXER_SETTLE_MS } from "@/lib/tx/refresh";
import { bankKeys, isInFlight, useDeposit, useUid, type Deposit } from "../api";

export type DepositTracker = ReturnType<typeof useDepositTracker>;

/**
 * Follows the deposit just requested (GET /api/bank/deposits/:id every second) through pending and
 * processing to its end. Lives with the page, not the tab, so switching tabs keeps following it.
 * Completed: the chain reads refresh (the Dashboard's balance shows the minted USDX) and the
 * 'Deposit Successful!' dialog opens. Failed: 'Deposit Failed' with the server's reason.
 */
export function useDepositTracker() {
  const queryClient = useQueryClient();
  const uid = useUid();
  const [id, setId] = useState<number | null>(null);
  // The 'Deposit Successful!' dialog shows the tracked deposit once it has completed, until closed.
  const [closedId, setClosedId] = useState<number | null>(null);
  const query = useDeposit(id);
  const settled = useRef<number | null>(null);
  const deposit = id !== null && query.data?.id === id ? query.data : undefined;

  useEffect(() => {
    if (!deposit || isInFlight(deposit) || settled.current === deposit.id) return;
    settled.current = deposit.id;
    if (deposit.status === "completed") {
      void queryClient.invalidateQueries({ queryKey: chainKeys.all });
      // The mint also changes what the server indexes (history, supply, wallet balances): the rest
      // reloads as after any transaction, now and again once the indexer has caught up.
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== chainKeys.all[0] });
      setTimeout(() => void queryClient.invalidateQueries(), INDEXER_SETTLE_MS);
    } else {
      void queryClient.invalidateQueries({ queryKey: bankKeys.deposits(uid) });
      toast({ title: "Deposit Failed", description: deposit.error ?? "The mint failed; no USDX was minted.", variant: "destructive" });
    }
  }, [deposit, queryClient, uid]);

  /** Starts following a deposit the server has just accepted. */
  const track = useCallback(
    (accepted: Deposit) => {
      queryClient.setQueryData(bankKeys.deposit(uid, accepted.id), accepted);
      void queryClient.invalidateQueries({ queryKey: bankKeys.deposits(uid) });
      setId(accepted.id);
    },
    [queryClient, uid],
  );

  return {
    deposit,
    /** A failed look while the deposit is still under way: the poll keeps trying. */
    pollError: deposit && isInFlight(deposit) && query.isError ? query.error : null,
    track,
    succeeded: deposit?.status === "completed" && deposit.id !== closedId ? deposit : null,
    closeSuccess: useCallback(() => setClosedId(id), [id]),
  };
}
