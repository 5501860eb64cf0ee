import { useEffect, useRef, type ReactNode } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { cn } from "@/lib/utils";

export interface Column<T> {
  header: string;
  cell(row: T): ReactNode;
  /** Figures sit on the right. */
  align?: "end";
}

/** Fixed height of a row: room for a value and the reason under it. */
export const ROW_HEIGHT = 56;
/** The scroll box's height: a screenful of rows, the rest reached by scrolling. */
export const TABLE_MAX_HEIGHT = 480;
// Rows drawn beyond the visible ones, so fast scrolling shows no blank band.
const OVERSCAN = 8;

/**
 * A table that draws only the rows in view (10,000 CSV rows stay smooth). Divs with table roles:
 * a <table> cannot position rows absolutely. One scroll box scrolls both ways, so on a phone the
 * columns scroll sideways and the header stays on top.
 */
export function VirtualTable<T>({
  label,
  rows,
  columns,
  gridTemplate,
  minWidth,
  rowKey,
  rowClassName,
  onEndReached,
  empty,
}: {
  label: string;
  rows: readonly T[];
  columns: Column<T>[];
  /** CSS grid-template-columns shared by the header and every row. */
  gridTemplate: string;
  minWidth: number;
  rowKey(row: T, index: number): string | number;
  rowClassName?(row: T): string | undefined;
  /** Called when the last row comes into view (to load the next page). */
  onEndReached?(): void;
  empty?: ReactNode;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  // The hook answers functions that React Compiler cannot memoize; this dashboard is not built with
  // the compiler, so the warning has nothing to act on here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    getItemKey: (index) => rowKey(rows[index], index),
  });
  const items = virtualizer.getVirtualItems();
  const last = items.length > 0 ? items[items.length - 1].index : -1;

  useEffect(() => {
    if (onEndReached && rows.length > 0 && last >= rows.length - 1) onEndReached();
  }, [last, rows.length, onEndReached]);

  return (
    <div
      ref={scroller}
      role="table"
      aria-label={label}
      aria-rowcount={rows.length + 1}
      className="overflow-auto rounded-md border border-border"
      style={{ maxHeight: TABLE_MAX_HEIGHT }}
    >
      <div style={{ minWidth }}>
        <div role="rowgroup" className="sticky top-0 z-10 border-b border-border bg-muted">
          <div role="row" aria-rowindex={1} className="grid" style={{ gridTemplateColumns: gridTemplate }}>
            {columns.map((column) => (
              <div
                key={column.header}
                role="columnheader"
                className={cn(
                  "flex h-10 items-center px-3 text-xs font-medium uppercase tracking-wide text-muted-foreground",
                  column.align === "end" && "justify-end text-right",
                )}
              >
                {column.header}
              </div>
            ))}
          </div>
        </div>
        {rows.length === 0 ? (
          empty
        ) : (
          <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const row = rows[item.index];
              return (
                <div
                  key={item.key}
                  role="row"
                  aria-rowindex={item.index + 2}
                  className={cn(
                    "absolute left-0 top-0 grid w-full border-b border-border transition-colors hover:bg-muted/40",
                    rowClassName?.(row),
                  )}
                  style={{ height: ROW_HEIGHT, transform: `translateY(${item.start}px)`, gridTemplateColumns: gridTemplate }}
                >
                  {columns.map((column) => (
                    <div
                      key={column.header}
                      role="cell"
                      className={cn("flex min-w-0 flex-col justify-center px-3 text-sm", column.align === "end" && "items-end text-right")}
                    >
                      {column.cell(row)}
                    </div>
                  ))}
                </div>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}
