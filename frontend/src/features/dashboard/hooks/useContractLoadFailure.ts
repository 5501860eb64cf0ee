import { useEffect, useRef } from "react";
import { toast } from "@/components/ui/toast";
import { errorMessage } from "../figures";

/**
 * PRODUCT.md section 2: contract data loads on connect, and a failure toasts 'Failed to load contract
 * data', once per connected account. Only a first load that failed counts: a later refresh that
 * fails has its own toast ('Refresh failed') and the cards keep their last figures.
 */
export function useContractLoadFailure(address: string | null, firstLoadFailed: boolean, error: unknown) {
  const toastedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!address || !firstLoadFailed || toastedFor.current === address) return;
    toastedFor.current = address;
    toast({ title: "Failed to load contract data", description: errorMessage(error) ?? undefined, variant: "destructive" });
  }, [address, firstLoadFailed, error]);
}
