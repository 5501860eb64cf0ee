import { render } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SnakeBackground } from "./components/SnakeBackground";
import { SNAKE_START_DELAY_MS, SNAKE_STEP_FRAMES } from "./components/snake";

/** A 2D context that records what is drawn (the test DOM has no canvas). */
function fakeContext() {
  return {
    clearRect: vi.fn(),
    beginPath: vi.fn(),
    moveTo: vi.fn(),
    lineTo: vi.fn(),
    stroke: vi.fn(),
    fillRect: vi.fn(),
    setTransform: vi.fn(),
    globalAlpha: 1,
    strokeStyle: "",
    fillStyle: "",
    lineWidth: 1,
  };
}

let ctx: ReturnType<typeof fakeContext>;
let frames: FrameRequestCallback[];
let reducedMotion: boolean;

/** Runs the next `n` animation frames, as the browser would. */
function advanceFrames(n: number) {
  for (let i = 0; i < n; i++) {
    const callback = frames.shift();
    callback?.(performance.now());
  }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  ctx = fakeContext();
  frames = [];
  reducedMotion = false;
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation((() => ctx) as unknown as HTMLCanvasElement["getContext"]);
  vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockReturnValue({ width: 200, height: 100 } as DOMRect);
  vi.spyOn(window, "requestAnimationFrame").mockImplementation((cb) => {
    frames.push(cb);
    return frames.length;
  });
  vi.spyOn(window, "cancelAnimationFrame").mockImplementation(() => {
    frames = [];
  });
  vi.spyOn(window, "matchMedia").mockImplementation(
    (query: string) =>
      ({
        matches: reducedMotion && query.includes("reduce"),
        media: query,
        addEventListener() {},
        removeEventListener() {},
      }) as unknown as MediaQueryList,
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const renderPanel = () =>
  render(
    <div style={{ position: "relative" }}>
      <SnakeBackground />
    </div>,
  );

describe("SnakeBackground", () => {
  it("is a decorative canvas that draws the grid at once", () => {
    const { container } = renderPanel();
    expect(container.querySelector("canvas")).toHaveAttribute("aria-hidden", "true");
    expect(ctx.stroke).toHaveBeenCalled();
    expect(ctx.fillRect).not.toHaveBeenCalled();
  });

  it("waits 3 s, then moves the snake every 8th frame", () => {
    renderPanel();
    vi.advanceTimersByTime(SNAKE_START_DELAY_MS - 1);
    expect(window.requestAnimationFrame).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    // The snake appears (5 cells) and the frame loop begins.
    expect(ctx.fillRect).toHaveBeenCalledTimes(5);
    expect(window.requestAnimationFrame).toHaveBeenCalledTimes(1);

    advanceFrames(SNAKE_STEP_FRAMES - 1);
    expect(ctx.fillRect).toHaveBeenCalledTimes(5);
    advanceFrames(1);
    expect(ctx.fillRect).toHaveBeenCalledTimes(10);
  });

  it("draws only the grid for people who prefer reduced motion", () => {
    reducedMotion = true;
    renderPanel();
    vi.advanceTimersByTime(SNAKE_START_DELAY_MS * 2);
    expect(ctx.stroke).toHaveBeenCalled();
    expect(window.requestAnimationFrame).not.toHaveBeenCalled();
    expect(ctx.fillRect).not.toHaveBeenCalled();
  });

  it("stops when it leaves the page", () => {
    const { unmount } = renderPanel();
    vi.advanceTimersByTime(SNAKE_START_DELAY_MS);
    unmount();
    expect(window.cancelAnimationFrame).toHaveBeenCalled();
    expect(frames).toHaveLength(0);
  });

  it("does not start at all when unmounted during the delay", () => {
    const { unmount } = renderPanel();
    unmount();
    vi.advanceTimersByTime(SNAKE_START_DELAY_MS);
    expect(window.requestAnimationFrame).not.toHaveBeenCalled();
  });
});
