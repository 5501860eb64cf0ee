import { plural } from "@common/wording";

/* Times and waits in the words the API's sentences use. */

/** '2025-06-01 14:05 UTC': a moment to the minute, never earlier than `date`. */
export function utcTime(date: Date): string {
  const up = new Date(Math.ceil(date.getTime() / 60_000) * 60_000);
  return `${up.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** "1 hour", "10 minutes", "1 second": a configured wait, in words. */
export function duration(ms: number): string {
  const [size, unit] = ms >= 3_600_000 ? [ms / 3_600_000, "hour"] : ms >= 60_000 ? [ms / 60_000, "minute"] : [ms / 1000, "second"];
  const n = Math.round(size * 10) / 10;
  return plural(n, unit);
}
