import { useCallback, useRef, useState } from "react";
import { toast, type Toast } from "@/components/ui/toast";

/** What went wrong with a form: the sentence to show and which fields it is about. */
export interface FormProblem {
  message: string;
  fields: string[];
}

interface RunOptions {
  /** Toast title when the call fails ('Login failed', ...); the description is the sentence. */
  failTitle: string;
  /** The sentence when the error carries none (the auth layer always throws AuthFailure, but be safe). */
  fallback: string;
  onSuccess: () => void;
}

/** The sentence of a failed auth call: AuthFailure's message, which is already meant for people. */
export function failureMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/**
 * Busy state, inline error and toasts for one auth form. `reject` reports a validation problem;
 * `run` performs the call once at a time and reports its failure the same way.
 */
export function useAuthAction() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  // State updates land on the next render; the ref stops a double submit (Enter then click) in between.
  const busyRef = useRef(false);

  const reject = useCallback((message: string, shown: Omit<Toast, "id">, fields: string[] = []) => {
    setProblem({ message, fields });
    toast({ variant: "destructive", ...shown });
  }, []);

  const run = useCallback(async (action: () => Promise<void>, { failTitle, fallback, onSuccess }: RunOptions) => {
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    setProblem(null);
    try {
      await action();
    } catch (error) {
      const message = failureMessage(error, fallback);
      setProblem({ message, fields: [] });
      toast({ title: failTitle, description: message, variant: "destructive" });
      return;
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
    onSuccess();
  }, []);

  const invalid = (field: string) => problem?.fields.includes(field) ?? false;

  return { busy, problem, reject, run, invalid };
}
