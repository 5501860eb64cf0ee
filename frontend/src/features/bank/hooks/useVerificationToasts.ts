import { useEffect, useRef } from "react";
import { toast } from "@/components/ui/toast";
import type { BankAccount } from "../api";

/**
 * 'Account Verified' once for each account this page saw pending and now sees verified (the
 * accounts query polls while one is pending). Accounts verified before the page opened stay quiet.
 */
export function useVerificationToasts(accounts: BankAccount[] | undefined) {
  const pending = useRef(new Set<number>());
  useEffect(() => {
    if (!accounts) return;
    for (const account of accounts) {
      if (account.status === "pending") {
        pending.current.add(account.id);
      } else if (pending.current.delete(account.id)) {
        toast({
          title: "Account Verified",
          description: `${account.name} (••••${account.lastFour}) is verified: you can deposit from it now.`,
        });
      }
    }
  }, [accounts]);
}
