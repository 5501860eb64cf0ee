import { useEffect, useState } from "react";

/** The time, refreshed every `everyMs`, so 'Just now' turns into '1 minute ago' on its own. */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
