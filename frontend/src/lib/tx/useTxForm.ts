import { useRef, useState } from "react";
import { notify } from "@/lib/notices";
import { useProposeVia } from "@/lib/safes";
import type { Problem } from "@/lib/validation";
import { useWallet } from "@/lib/wallet/store";
import { useProposer } from "./propose";
import { useTransactor, type TxOutcome, type TxRequest } from "./runner";
import { walletNotConnected } from "./wallet";

/** A destructive action's second step: what is about to happen, in words. */
export interface Confirmation {
  title: string;
  description: string;
  confirmLabel: string;
}

export interface StartOptions {
  /** After a successful transaction (forms clear their fields, dialogs close). */
  onSuccess?: () => void;
  /** Asks once more before a destructive action. */
  confirmation?: Confirmation;
  /** Runs first while the form shows busy (the multiplier's audit request). */
  before?: () => Promise<void>;
}

export interface TxFormOptions {
  /** Whether a wallet can sign, where the caller is told (a dialog's page); else the wallet store says. */
  connected?: boolean;
}

/** Work done while the form is busy, given the runner; true when it succeeded. */
export type TxTask = (run: (request: TxRequest) => Promise<TxOutcome>) => Promise<boolean>;

interface Pending extends Confirmation {
  task: TxTask;
  options: StartOptions;
}

/**
 * The one form runner, for every write a person starts: the Dashboard's transfer and multiplier
 * dialogs and its quick add, the role holders' forms, and a batch payment. It keeps the wallet
 * check (PRODUCT.md section 5 asks for it first), the validation problems (the spec's toast for the
 * first, each under its field), the busy flag while the runner works (a second click sends
 * nothing), and the optional confirm step. Forms only validate and build calls; the runner
 * (runner.ts) does the rest. Under a Safe that the form proposes to (ProposeVia, set by whatever
 * gates the form on a role), each request is proposed to that Safe instead (propose.ts): the same
 * fields, checks and confirm step, and `safe` tells the form's button what to say.
 */
export function useTxForm<Field extends string = never>(options: TxFormOptions = {}) {
  const safe = useProposeVia();
  const transact = useTransactor();
  const propose = useProposer(safe);
  const run = safe ? propose : transact;
  const walletConnected = useWallet((s) => s.status === "connected" && s.address !== null);
  const connected = options.connected ?? walletConnected;
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [pending, setPending] = useState<Pending | null>(null);
  // A second click before React re-renders the disabled button must not send twice.
  const inFlight = useRef(false);

  /** Shows the spec's toast for the first problem, and every field's problem under that field. */
  function reject(problems: [Field | null, Problem][]) {
    const [, first] = problems[0];
    notify({ title: first.title, description: first.description, variant: "destructive" });
    const next: Partial<Record<Field, string>> = {};
    for (const [field, problem] of problems) if (field && !next[field]) next[field] = problem.description;
    setErrors(next);
  }

  /** True when a wallet can sign; otherwise false, after 'Wallet not connected' with `purpose` (under `field` when given). */
  function needWallet(purpose: string, field: Field | null = null): boolean {
    if (connected) return true;
    reject([[field, walletNotConnected(purpose)]]);
    return false;
  }

  async function execute(task: TxTask, options: StartOptions) {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      if (options.before) await options.before();
      if (await task(run)) options.onSuccess?.();
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  }

  /** Runs `task` (several requests, or the work around them) while busy, after the confirm step when one is given. */
  async function perform(task: TxTask, options: StartOptions = {}): Promise<void> {
    setErrors({});
    if (options.confirmation) setPending({ ...options.confirmation, task, options });
    else await execute(task, options);
  }

  return {
    connected,
    /** The Safe this form proposes to, or null when it sends from the wallet. */
    safe,
    busy,
    errors,
    reject,
    needWallet,
    perform,
    /** Runs one validated request. */
    start: (request: TxRequest, options: StartOptions = {}) => void perform(async (send) => (await send(request)).ok, options),
    /** Drops a field's problem once the person edits it. */
    clearError: (field: Field) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e)),
    /** Drops every problem (a dialog that closes). */
    clearErrors: () => setErrors({}),
    pending: pending as Confirmation | null,
    confirm: () => {
      if (!pending) return;
      setPending(null);
      void execute(pending.task, pending.options);
    },
    cancel: () => setPending(null),
  };
}

export type TxForm<Field extends string> = ReturnType<typeof useTxForm<Field>>;

/** What the submit row needs to know of a form. */
export type TxFormStatus = Pick<TxForm<string>, "connected" | "safe" | "busy" | "pending" | "confirm" | "cancel">;
