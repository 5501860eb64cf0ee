/**
 * `read`, asked at most once per `forMs` whatever the number of callers: an answer younger than
 * `forMs` is given again, and callers that arrive while a read is under way share it. For probes that
 * anyone may trigger (GET /api/health), so a flood costs what they probe a constant rate. `read`
 * must not throw (a probe answers false instead).
 */
export function recently<T>(read: () => Promise<T>, forMs: number, now: () => number = Date.now): () => Promise<T> {
  let last: { at: number; answer: Promise<T> } | null = null;
  return () => {
    // Timed from when the read began: an answer is never older than forMs plus the read's own time.
    if (last === null || now() - last.at >= forMs) last = { at: now(), answer: read() };
    return last.answer;
  };
}
