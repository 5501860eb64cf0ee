import { useEffect } from "react";
import { toast } from "@/components/ui/toast";

/** Raises a destructive toast once for each failure (`failedAt` is the query's errorUpdatedAt). */
export function useFailureToast(title: string, failedAt: number, message: string | undefined) {
  useEffect(() => {
    if (failedAt) toast({ title, description: message, variant: "destructive" });
  }, [title, failedAt, message]);
}
