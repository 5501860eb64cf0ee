import { useEffect } from "react";
import { AlertCircle, RotateCw, type LucideIcon } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { cn } from "@/lib/utils";

interface LoadFailedProps {
  title: string;
  /** What went wrong, in words; null when the error said nothing. */
  sentence: string | null;
  /** Asks again (the query's refetch, or its next page). */
  onRetry(): void;
  /** The query is asking again: the button spins and waits. */
  retrying: boolean;
  /** The button's words, 'Retry' unless the way to try again differs ('Retry with smaller block range'). */
  retryLabel?: string;
  /** The alert's icon: a circled mark unless the failure has its own (a timeout's clock). */
  icon?: LucideIcon;
  /**
   * For a list whose failure PRODUCT.md section 8 names as a toast ('Failed to load transactions'):
   * the query's errorUpdatedAt, so the same title and sentence are toasted once for each failure.
   */
  toastAt?: number;
}

/** A failed read, inline (role alert): a title, what went wrong, and the way to try again. */
export function LoadFailed({
  title,
  sentence,
  onRetry,
  retrying,
  retryLabel = "Retry",
  icon: Icon = AlertCircle,
  toastAt,
}: LoadFailedProps) {
  useEffect(() => {
    if (toastAt) toast({ title, description: sentence ?? undefined, variant: "destructive" });
  }, [title, sentence, toastAt]);
  return (
    <Alert variant="destructive">
      <Icon className="h-4 w-4" aria-hidden />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription className="flex flex-wrap items-center justify-between gap-3">
        {sentence && <span className="min-w-0 [overflow-wrap:anywhere]">{sentence}</span>}
        <Button
          type="button"
          size="sm"
          variant="outline"
          className="border-destructive/40 bg-card text-foreground"
          onClick={onRetry}
          disabled={retrying}
        >
          <RotateCw className={cn("h-4 w-4", retrying && "animate-spin")} aria-hidden />
          {retryLabel}
        </Button>
      </AlertDescription>
    </Alert>
  );
}
