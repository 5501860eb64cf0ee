import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/** Joins class names, letting a later Tailwind class override an earlier one (shadcn's cn). */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

// tailwind-merge builds its tables on its first call: about 12 ms of a fast machine's main thread,
// four times that on a phone. Here, as this module loads, it is a task of its own (the page's boot
// script loads each module in a task of its own); else it fell in the entry module's evaluation,
// whose modules call cn at their top level, and made that the longest task of a page load.
twMerge("");
