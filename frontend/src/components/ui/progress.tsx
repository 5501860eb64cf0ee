import * as React from "react";
import { cn } from "@/lib/utils";

export interface ProgressProps extends React.HTMLAttributes<HTMLDivElement> {
  /** Done so far, out of `max`. */
  value: number;
  max?: number;
  /** What the bar measures, for screen readers. */
  label: string;
  /** The figure a screen reader reads ('1,128 of 2,500 recipients paid'); the percentage otherwise. */
  valueText?: string;
}

/** shadcn-style progress bar: a role="progressbar" track with a filled indicator. */
export const Progress = ({ value, max = 100, label, valueText, className, ...props }: ProgressProps) => {
  const share = max > 0 ? Math.min(Math.max(value / max, 0), 1) : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      aria-valuetext={valueText}
      className={cn("relative h-2.5 w-full overflow-hidden rounded-full bg-muted", className)}
      {...props}
    >
      <div className="h-full rounded-full bg-primary transition-[width] duration-500 ease-out" style={{ width: `${share * 100}%` }} />
    </div>
  );
};
