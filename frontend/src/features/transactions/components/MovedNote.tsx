import { Info } from "lucide-react";
import { cn } from "@/lib/utils";
import type { MovedNote as Note } from "@/lib/format";

/**
 * The small print under an amount whose Transfer moved less than its event says (USDX rounds a
 * transfer down to whole shares): the event's value and what moved, or that no share moved.
 */
export function MovedNote({ note, className }: { note: Note; className?: string }) {
  return (
    <span className={cn("flex max-w-[16rem] items-start gap-1 whitespace-normal text-[11px] font-normal leading-snug text-muted-foreground", className)}>
      <Info className="mt-px h-3 w-3 shrink-0" aria-hidden />
      <span>{note.text}</span>
    </span>
  );
}
