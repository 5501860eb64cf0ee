import type { UserEvent } from "@testing-library/user-event";

/**
 * Types `text` into `box` (emptied first) as a person who never pauses, and answers how many
 * requests `sent()` had listed when the attempt that did so began: a test of a search box that asks
 * once the typing pauses reads the requests after that many. A busy machine can hold a keystroke
 * back for longer than the pause, and then the page rightly asks for what was typed so far; so the
 * typing is timed, and done again while two keystrokes were `pauseMs` or more apart (at most five
 * times). A page that asks on every keystroke still sends one request per key.
 */
export async function typeWithoutPausing(
  user: UserEvent,
  box: HTMLElement,
  text: string,
  { pauseMs, sent }: { pauseMs: number; sent: () => unknown[] },
): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const before = sent().length;
    const times: number[] = [];
    const record = () => times.push(performance.now());
    box.addEventListener("input", record);
    try {
      await user.clear(box);
      await user.type(box, text);
    } finally {
      box.removeEventListener("input", record);
    }
    const longest = Math.max(...times.slice(1).map((time, i) => time - times[i]));
    if (longest < pauseMs) return before;
    if (attempt === 5) throw new Error(`Five times, two keystrokes of '${text}' were ${Math.round(longest)} ms or more apart.`);
  }
}
