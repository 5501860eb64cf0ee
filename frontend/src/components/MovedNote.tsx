import { Info } from "lucide-react";
import { cn } from "@/lib/utils";
import type { MovedNote as Note } from "@/lib/format";

/**
 * The small print under an amount whose Transfer moved less than its event says (USDX rounds a
 * transfer down to whole shares): the event's value and what moved, or that no share moved. The
 * icon flows with the text, so it stays beside the first word however the text is aligned.
 */
export function MovedNote({ note, className }: { note: Note; className?: string }) {
  return (
    <span className={cn("block max-w-[16rem] whitespace-normal text-[11px] font-normal leading-snug text-muted-foreground", className)}>
      <Info className="mr-1 inline h-3 w-3 align-[-2px]" aria-hidden />
      {note.text}
    </span>
  );
}
