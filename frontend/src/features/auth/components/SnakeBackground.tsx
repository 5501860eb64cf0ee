import { useEffect, useRef } from "react";
import { cn } from "@/lib/utils";
import { SNAKE_GRID_PX, SNAKE_START_DELAY_MS, SNAKE_STEP_FRAMES, createSnake, gridSize, stepSnake, type SnakeState } from "./snake";

/** Faint enough to read as texture behind the branding text. */
const GRID_COLOUR = "rgba(255, 255, 255, 0.05)";
/** Used when the theme's ring colour cannot be read (the accent the rest of the app focuses with). */
const FALLBACK_SNAKE_COLOUR = "#14b8a6";
const HEAD_ALPHA = 0.85;
const TAIL_ALPHA = 0.12;
/** Gap around each snake cell so the segments read as separate tiles on the grid. */
const CELL_INSET_PX = 3;

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

function snakeColour(): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue("--color-ring").trim();
  return value || FALLBACK_SNAKE_COLOUR;
}

/**
 * The animated background of the /auth branding panel (PRODUCT.md section 9): a faint 20 px grid and a
 * 5-cell snake that moves one cell every 8 frames, starting 3 s after the panel appears. It fills
 * its positioned parent, follows its size, and only draws the grid for people who prefer reduced
 * motion. Decorative, so hidden from assistive technology.
 */
export function SnakeBackground({ className }: { className?: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    const panel = canvas?.parentElement;
    const ctx = canvas?.getContext("2d");
    if (!canvas || !panel || !ctx) return;

    const colour = snakeColour();
    const motionQuery = typeof window.matchMedia === "function" ? window.matchMedia(REDUCED_MOTION) : null;
    let reduced = motionQuery?.matches ?? false;
    let width = 0;
    let height = 0;
    let cols = 1;
    let rows = 1;
    let snake: SnakeState | null = null;
    let frame = 0;
    let rafId: number | null = null;
    let startTimer: ReturnType<typeof setTimeout> | null = null;

    const draw = () => {
      ctx.clearRect(0, 0, width, height);
      ctx.globalAlpha = 1;
      ctx.strokeStyle = GRID_COLOUR;
      ctx.lineWidth = 1;
      ctx.beginPath();
      // Half-pixel offsets keep 1 px lines crisp.
      for (let x = 0; x <= width; x += SNAKE_GRID_PX) {
        ctx.moveTo(x + 0.5, 0);
        ctx.lineTo(x + 0.5, height);
      }
      for (let y = 0; y <= height; y += SNAKE_GRID_PX) {
        ctx.moveTo(0, y + 0.5);
        ctx.lineTo(width, y + 0.5);
      }
      ctx.stroke();
      if (!snake || reduced) return;
      ctx.fillStyle = colour;
      const last = snake.cells.length - 1;
      // Tail first so the brighter head is painted over any cell it shares with the body.
      for (let i = last; i >= 0; i--) {
        const cell = snake.cells[i];
        ctx.globalAlpha = HEAD_ALPHA - ((HEAD_ALPHA - TAIL_ALPHA) * i) / Math.max(1, last);
        const size = SNAKE_GRID_PX - 2 * CELL_INSET_PX;
        ctx.fillRect(cell.x * SNAKE_GRID_PX + CELL_INSET_PX, cell.y * SNAKE_GRID_PX + CELL_INSET_PX, size, size);
      }
      ctx.globalAlpha = 1;
    };

    const resize = () => {
      const rect = panel.getBoundingClientRect();
      width = Math.max(0, Math.round(rect.width));
      height = Math.max(0, Math.round(rect.height));
      // Back the canvas with device pixels so the grid stays sharp on high-density screens.
      const dpr = window.devicePixelRatio || 1;
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(height * dpr);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ({ cols, rows } = gridSize(width, height));
      // stepSnake restarts a snake the smaller panel no longer holds; redraw now rather than wait.
      if (snake && !snake.cells.every((c) => c.x < cols && c.y < rows)) snake = createSnake(cols, rows);
      draw();
    };

    const tick = () => {
      frame += 1;
      if (frame % SNAKE_STEP_FRAMES === 0 && snake) {
        snake = stepSnake(snake, cols, rows);
        draw();
      }
      rafId = requestAnimationFrame(tick);
    };

    const stop = () => {
      if (startTimer !== null) clearTimeout(startTimer);
      if (rafId !== null) cancelAnimationFrame(rafId);
      startTimer = null;
      rafId = null;
    };

    const start = () => {
      stop();
      if (reduced) return;
      startTimer = setTimeout(() => {
        startTimer = null;
        snake = createSnake(cols, rows);
        frame = 0;
        draw();
        rafId = requestAnimationFrame(tick);
      }, SNAKE_START_DELAY_MS);
    };

    // Someone may switch reduced motion on while the page is open: stop at once (and back on, restart).
    const onMotionChange = (event: MediaQueryListEvent) => {
      reduced = event.matches;
      if (reduced) {
        stop();
        snake = null;
        draw();
      } else {
        start();
      }
    };

    resize();
    start();
    motionQuery?.addEventListener?.("change", onMotionChange);

    let observer: ResizeObserver | null = null;
    if (typeof ResizeObserver === "function") {
      observer = new ResizeObserver(resize);
      observer.observe(panel);
    } else {
      window.addEventListener("resize", resize);
    }

    return () => {
      stop();
      motionQuery?.removeEventListener?.("change", onMotionChange);
      if (observer) observer.disconnect();
      else window.removeEventListener("resize", resize);
    };
  }, []);

  return <canvas ref={canvasRef} aria-hidden="true" className={cn("pointer-events-none absolute inset-0 h-full w-full", className)} />;
}
