import { useRef, useState } from "react";
import { toast } from "@/components/ui/toast";
import { useTransactor, type TxRequest } from "@/lib/tx/runner";
import type { Problem } from "@/lib/validation";
import { useWallet } from "@/lib/wallet/store";

/** A destructive action's second step: what is about to happen, in words. */
export interface Confirmation {
  title: string;
  description: string;
  confirmLabel: string;
}

export interface StartOptions {
  /** After a successful transaction (forms clear their fields). */
  onSuccess?: () => void;
  /** Asks once more before a destructive action. */
  confirmation?: Confirmation;
  /** Runs first while the form shows busy (the multiplier's audit request). */
  before?: () => Promise<void>;
}

interface Pending extends Confirmation {
  request: TxRequest;
  options: StartOptions;
}

/**
 * What every role holder's form shares: validation problems (the spec's toast for the first, and
 * each under its field), the busy flag while the runner works, and the optional confirm step.
 * Forms only validate and build calls; the runner does the rest.
 */
export function useTxForm<Field extends string>() {
  const run = useTransactor();
  const connected = useWallet((s) => s.status === "connected" && s.address !== null);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [pending, setPending] = useState<Pending | null>(null);
  // A second click before React re-renders the disabled button must not send twice.
  const inFlight = useRef(false);

  /** Shows the spec's toast for the first problem, and every field's problem under that field. */
  function reject(problems: [Field | null, Problem][]) {
    const [, first] = problems[0];
    toast({ title: first.title, description: first.description, variant: "destructive" });
    const next: Partial<Record<Field, string>> = {};
    for (const [field, problem] of problems) if (field && !next[field]) next[field] = problem.description;
    setErrors(next);
  }

  async function execute(request: TxRequest, options: StartOptions) {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      await options.before?.();
      if ((await run(request)).ok) options.onSuccess?.();
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  }

  /** Runs a validated request, after the confirm step when one is given. */
  function start(request: TxRequest, options: StartOptions = {}) {
    setErrors({});
    if (options.confirmation) setPending({ ...options.confirmation, request, options });
    else void execute(request, options);
  }

  return {
    connected,
    busy,
    errors,
    reject,
    start,
    /** Drops a field's problem once the person edits it. */
    clearError: (field: Field) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e)),
    pending: pending as Confirmation | null,
    confirm: () => {
      if (!pending) return;
      setPending(null);
      void execute(pending.request, pending.options);
    },
    cancel: () => setPending(null),
  };
}

/** What the submit row needs to know of a form. */
export type TxFormStatus = Pick<ReturnType<typeof useTxForm<string>>, "connected" | "busy" | "pending" | "confirm" | "cancel">;
