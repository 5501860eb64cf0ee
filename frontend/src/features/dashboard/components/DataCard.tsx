import { useState, type ReactNode } from "react";
import { RefreshCw } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { relativeTime } from "@/lib/format";
import { cn } from "@/lib/utils";
import { errorText } from "../figures";
import { useNow } from "@/lib/useNow";

interface DataCardProps {
  title: string;
  icon?: ReactNode;
  /** Beside the title: a badge such as 'Paused'. */
  badge?: ReactNode;
  onRefresh?: () => void;
  refreshing?: boolean;
  /** The first load: a spinner in place of the figures. */
  loading?: boolean;
  /** A failed read: 'Error: {message}' (the last figures, if any, stay shown above it). */
  error?: unknown;
  /** Unix ms of the figures shown. */
  updatedAt?: number | null;
  children?: ReactNode;
  footer?: ReactNode;
  className?: string;
}

/** PRODUCT.md section 2's generic card: title, refresh, loading spinner, error text and a 'Last updated' line. */
export function DataCard({
  title,
  icon,
  badge,
  onRefresh,
  refreshing,
  loading,
  error,
  updatedAt,
  children,
  footer,
  className,
}: DataCardProps) {
  const now = useNow();
  return (
    <Card className={cn("flex flex-col", className)} aria-busy={loading || refreshing || undefined}>
      <CardHeader className="flex-row items-center justify-between gap-2 space-y-0 pb-3">
        <div className="flex min-w-0 items-center gap-2">
          {icon && (
            <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-md bg-accent text-accent-foreground [&_svg]:h-4 [&_svg]:w-4">
              {icon}
            </span>
          )}
          <CardTitle className="text-base leading-snug">{title}</CardTitle>
          {badge}
        </div>
        {onRefresh && (
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="h-8 w-8 shrink-0"
            aria-label={`Refresh ${title}`}
            title="Refresh"
            onClick={onRefresh}
            disabled={refreshing}
          >
            <RefreshCw className={cn("h-4 w-4", refreshing && "animate-spin")} aria-hidden />
          </Button>
        )}
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-3">
        {loading ? (
          <div className="flex min-h-16 items-center">
            <Spinner label={`Loading ${title}`} />
          </div>
        ) : (
          children
        )}
        {error ? (
          <p role="alert" className="text-sm text-destructive">
            {errorText(error)}
          </p>
        ) : null}
        {footer && <div className="mt-auto pt-1">{footer}</div>}
        {updatedAt ? <UpdatedAt at={updatedAt} now={now} /> : null}
      </CardContent>
    </Card>
  );
}

/**
 * 'Last updated: 2 minutes ago', with the full local date and time as its tooltip. The tooltip is
 * written when the pointer first comes over it, not with the card: a page's first date formatting
 * loads the browser's locale data (some 130 ms on a mid-range phone), which made a long task of
 * the Dashboard's load for a tooltip few people ask for.
 */
function UpdatedAt({ at, now }: { at: number; now: number }) {
  const [pointedAt, setPointedAt] = useState(false);
  return (
    <p className="text-xs text-muted-foreground">
      Last updated:{" "}
      <time
        dateTime={new Date(at).toISOString()}
        title={pointedAt ? new Date(at).toLocaleString() : undefined}
        onPointerEnter={() => setPointedAt(true)}
      >
        {relativeTime(at / 1000, now)}
      </time>
    </p>
  );
}

/** A small muted sentence inside a card (why a figure is missing, what a button needs). */
export function CardNote({ children, className }: { children: ReactNode; className?: string }) {
  return <p className={cn("text-sm text-muted-foreground", className)}>{children}</p>;
}
