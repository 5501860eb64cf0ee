import { Percent, Plus, SlidersHorizontal } from "lucide-react";
import { Button } from "@/components/ui/button";
import { MULTIPLIER_QUICK_ADD } from "@common/token";
import { SafeApprovalNote } from "@/components/SafeApprovalNote";
import { recordMultiplierRequest } from "@/lib/tx/multiplierAudit";
import { useTxForm } from "@/lib/tx/useTxForm";
import { useConfig } from "@/lib/config";
import { boundOf, guardMultiplier } from "@/lib/tx/multiplierGuard";
import { shownMultiplier } from "../figures";
import { CardNote, DataCard } from "./DataCard";

interface RewardMultiplierCardProps {
  rewardMultiplier: bigint | undefined;
  readAt: number | undefined;
  loading: boolean;
  refreshing: boolean;
  error: unknown;
  readable: boolean;
  onRefresh: () => void;
  connected: boolean;
  /** The connected wallet holds ORACLE_ROLE; null while that is being read. */
  oracle: boolean | null;
  onAdvanced: () => void;
}

/**
 * PRODUCT.md section 2: the multiplier (4 decimals and x), 'Add 0.01' and 'Advanced Settings', for
 * oracles only; an owner of a Safe holding ORACLE_ROLE proposes the change to that Safe instead
 * (the page sets ProposeVia, and the form runner proposes).
 */
export function RewardMultiplierCard(props: RewardMultiplierCardProps) {
  const { rewardMultiplier, readAt, loading, refreshing, error, readable, onRefresh, connected, oracle, onAdvanced } = props;
  const form = useTxForm();
  const adding = form.busy;
  const allowed = connected && (oracle === true || form.safe !== null);

  // The quick add is one click: it is offered only for a step the bound lets go without a retype
  // (0.01 is 1% at most, the default bound); otherwise Advanced Settings asks for the value twice.
  const bound = boundOf(useConfig().multiplierMaxStepPercent);
  const quick =
    rewardMultiplier !== undefined ? guardMultiplier(rewardMultiplier, rewardMultiplier + MULTIPLIER_QUICK_ADD, "", "", bound) : null;
  const quickBlocked = quick?.blocked ?? false;

  // The same audit entry as the dialog's: every multiplier change asked for through the dashboard.
  // The calls (and the role hashes computed as they load) come with the first click, not the page.
  const addQuick = async () => {
    const { quickAddCall } = await import("@/lib/tx/calls");
    form.start(quickAddCall(quick?.change ?? null), { before: () => recordMultiplierRequest("add", MULTIPLIER_QUICK_ADD) });
  };

  return (
    <DataCard
      title="Reward Multiplier"
      icon={<Percent />}
      onRefresh={readable ? onRefresh : undefined}
      refreshing={refreshing}
      loading={loading}
      error={error}
      updatedAt={readAt}
      footer={
        <div className="space-y-2">
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="outline" onClick={() => void addQuick()} disabled={!allowed || adding || quickBlocked}>
              <Plus className="h-4 w-4" aria-hidden />
              {form.safe ? "Propose Add 0.01" : "Add 0.01"}
            </Button>
            <Button size="sm" variant="outline" onClick={onAdvanced} disabled={!allowed || adding}>
              <SlidersHorizontal className="h-4 w-4" aria-hidden />
              Advanced Settings
            </Button>
          </div>
          {!connected && <CardNote className="text-xs">Connect a wallet holding ORACLE_ROLE to change it.</CardNote>}
          {connected && oracle === false && !form.safe && <CardNote className="text-xs">Only ORACLE_ROLE holders can change it.</CardNote>}
          {allowed && quickBlocked && (
            <CardNote className="text-xs">
              Adding 0.01 now moves every balance by more than this deployment allows in one click: use Advanced Settings.
            </CardNote>
          )}
          {form.safe && <SafeApprovalNote safe={form.safe} />}
        </div>
      }
    >
      {rewardMultiplier !== undefined && (
        <div className="space-y-1">
          <p className="text-3xl font-semibold tracking-tight tabular-nums" data-testid="reward-multiplier">
            {shownMultiplier(rewardMultiplier)}
          </p>
          <CardNote>Controls token/share ratio</CardNote>
        </div>
      )}
      {!readable && <CardNote>Connect a wallet to read the reward multiplier.</CardNote>}
    </DataCard>
  );
}
