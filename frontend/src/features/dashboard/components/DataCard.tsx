import type { ReactNode } from "react";
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
        {updatedAt ? (
          <p className="text-xs text-muted-foreground">
            Last updated:{" "}
            <time dateTime={new Date(updatedAt).toISOString()} title={new Date(updatedAt).toLocaleString()}>
              {relativeTime(updatedAt / 1000, now)}
            </time>
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** A small muted sentence inside a card (why a figure is missing, what a button needs). */
export function CardNote({ children, className }: { children: ReactNode; className?: string }) {
  return <p className={cn("text-sm text-muted-foreground", className)}>{children}</p>;
}
