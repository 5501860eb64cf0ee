import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { PauseCircle, PlayCircle } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { SafeApprovalNote } from "@/components/SafeApprovalNote";
import { chainKeys, useTokenFigures } from "@/lib/chain/queries";
import { pauseCall } from "@/lib/tx/calls";
import { useTxForm } from "@/lib/tx/useTxForm";
import { RoleRequirement } from "./RoleNotes";

/**
 * PRODUCT.md section 4: Pause is enabled only while the contract is active, Unpause only while it is
 * paused; both are disabled while busy or loading (and with no wallet to sign).
 */
function usePauseControl() {
  const token = useTokenFigures();
  const form = useTxForm<never>();
  const paused = token.data?.paused;
  const idle = !form.busy && !token.isLoading && form.connected;
  return {
    token,
    form,
    paused,
    canPause: idle && paused === false,
    canUnpause: idle && paused === true,
    run: (action: "pause" | "unpause") => form.start(pauseCall(action)),
    /** A button's words: 'Pause Contract', or 'Propose Pause' where the form proposes to a Safe. */
    label: (action: "pause" | "unpause") =>
      form.safe ? (action === "pause" ? "Propose Pause" : "Propose Unpause") : action === "pause" ? "Pause Contract" : "Unpause Contract",
  };
}

function StatusLine({
  paused,
  loading,
  failed,
  onRetry,
}: {
  paused: boolean | undefined;
  loading: boolean;
  failed: boolean;
  onRetry(): void;
}) {
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm" aria-live="polite">
      <span className="text-muted-foreground">Contract status:</span>{" "}
      {loading ? (
        <span className="text-muted-foreground">Loading...</span>
      ) : paused === undefined ? (
        <>
          <span className="text-muted-foreground">{failed ? "Unknown (the chain could not be read)" : "Unknown"}</span>
          {failed && (
            <Button type="button" variant="link" size="sm" className="h-auto p-0" onClick={onRetry}>
              Retry
            </Button>
          )}
        </>
      ) : (
        <Badge variant={paused ? "destructive" : "success"}>{paused ? "Paused" : "Active"}</Badge>
      )}
    </p>
  );
}

/** The Dashboard's pause card (PAUSE_ROLE): both buttons, each enabled only when it applies. */
export function PauseCard() {
  const { token, form, paused, canPause, canUnpause, run, label } = usePauseControl();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Pause Contract</CardTitle>
        <CardDescription>While paused, every transfer, mint and burn is refused. Use it to stop the token in an emergency.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <StatusLine paused={paused} loading={token.isLoading} failed={token.isError} onRetry={() => void token.refetch()} />
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="destructive" disabled={!canPause} onClick={() => run("pause")}>
            <PauseCircle className="h-4 w-4" aria-hidden />
            {form.busy && paused === false ? "Processing..." : label("pause")}
          </Button>
          <Button type="button" variant="outline" disabled={!canUnpause} onClick={() => run("unpause")}>
            <PlayCircle className="h-4 w-4" aria-hidden />
            {form.busy && paused === true ? "Processing..." : label("unpause")}
          </Button>
        </div>
        {form.safe && <SafeApprovalNote safe={form.safe} />}
      </CardContent>
    </Card>
  );
}

/**
 * The Admin Panel's pause control: one button that pauses an active contract or unpauses a paused
 * one. The flag is read afresh when the panel opens (PRODUCT.md section 4).
 */
export function PauseToggle() {
  const { token, form, paused, canPause, canUnpause, run, label } = usePauseControl();
  const queryClient = useQueryClient();
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: chainKeys.token });
  }, [queryClient]);
  const action = paused ? "unpause" : "pause";
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="button"
          variant={paused ? "default" : "destructive"}
          disabled={paused ? !canUnpause : !canPause}
          onClick={() => run(action)}
        >
          {paused ? <PlayCircle className="h-4 w-4" aria-hidden /> : <PauseCircle className="h-4 w-4" aria-hidden />}
          {form.busy ? "Processing..." : label(action)}
        </Button>
        <StatusLine paused={paused} loading={token.isLoading} failed={token.isError} onRetry={() => void token.refetch()} />
      </div>
      <RoleRequirement role="PAUSE_ROLE" />
      {form.safe && <SafeApprovalNote safe={form.safe} />}
    </div>
  );
}
