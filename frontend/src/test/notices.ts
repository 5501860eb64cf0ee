import { setNotifier, type Notice } from "@/lib/notices";

/**
 * For lib's own tests: records what lib says through lib/notices.ts, in place of the toast layer
 * (components) that the app wires there. `last()` is the newest, as the one toast shown would be.
 */
export function recordNotices() {
  const seen: Notice[] = [];
  setNotifier((notice) => void seen.unshift(notice));
  return { last: (): Notice | undefined => seen[0], clear: () => void seen.splice(0) };
}
