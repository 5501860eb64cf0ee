import { describe, expect, it } from "vitest";
import {
  SNAKE_GRID_PX,
  SNAKE_LENGTH,
  SNAKE_START_DELAY_MS,
  SNAKE_STEP_FRAMES,
  createSnake,
  gridSize,
  stepSnake,
  type Cell,
  type SnakeState,
} from "./components/snake";

/** A small seeded generator (mulberry32) so each run takes the same path. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const px = (c: Cell) => ({ x: c.x * SNAKE_GRID_PX, y: c.y * SNAKE_GRID_PX });
const inBounds = (c: Cell, cols: number, rows: number) => c.x >= 0 && c.y >= 0 && c.x < cols && c.y < rows;

function run(cols: number, rows: number, steps: number, seed: number, check: (before: SnakeState, after: SnakeState) => void) {
  const rng = seeded(seed);
  let state = createSnake(cols, rows, rng);
  for (let i = 0; i < steps; i++) {
    const next = stepSnake(state, cols, rows, rng);
    check(state, next);
    state = next;
  }
}

const GRIDS: [number, number][] = [
  [40, 30],
  [12, 8],
  [3, 7],
  [2, 2],
  [6, 2],
];

describe("snake constants (PRODUCT.md section 9)", () => {
  it("steps every 8 frames on a 20 px grid after 3 s, with 5 cells", () => {
    expect(SNAKE_STEP_FRAMES).toBe(8);
    expect(SNAKE_GRID_PX).toBe(20);
    expect(SNAKE_START_DELAY_MS).toBe(3000);
    expect(SNAKE_LENGTH).toBe(5);
  });

  it("fits whole 20 px cells in the panel", () => {
    expect(gridSize(400, 219)).toEqual({ cols: 20, rows: 10 });
    expect(gridSize(0, 0)).toEqual({ cols: 1, rows: 1 });
  });
});

describe("stepSnake", () => {
  it.each(GRIDS)("keeps 5 cells, inside a %i x %i grid", (cols, rows) => {
    run(cols, rows, 3000, cols * 31 + rows, (_before, after) => {
      expect(after.cells).toHaveLength(SNAKE_LENGTH);
      for (const cell of after.cells) expect(inBounds(cell, cols, rows)).toBe(true);
    });
  });

  it.each(GRIDS)("moves the head exactly one 20 px cell and the body follows (%i x %i)", (cols, rows) => {
    run(cols, rows, 3000, cols * 7 + rows, (before, after) => {
      const from = px(before.cells[0]);
      const to = px(after.cells[0]);
      expect(Math.abs(to.x - from.x) + Math.abs(to.y - from.y)).toBe(SNAKE_GRID_PX);
      expect(after.cells.slice(1)).toEqual(before.cells.slice(0, -1));
    });
  });

  it.each(GRIDS)("never turns back onto its neck (%i x %i)", (cols, rows) => {
    run(cols, rows, 3000, cols * 13 + rows, (before, after) => {
      const [head, neck] = before.cells;
      if (neck.x !== head.x || neck.y !== head.y) expect(after.cells[0]).not.toEqual(neck);
      const opposite = { up: "down", down: "up", left: "right", right: "left" }[before.dir];
      expect(after.dir).not.toBe(opposite);
    });
  });

  it("goes straight when the dice say so, and turns at an edge instead of leaving", () => {
    const straight = () => 0.99;
    const start: SnakeState = { cells: [4, 3, 2, 1, 0].map((x) => ({ x, y: 5 })), dir: "right" };
    const next = stepSnake(start, 10, 10, straight);
    expect(next.dir).toBe("right");
    expect(next.cells[0]).toEqual({ x: 5, y: 5 });

    const atEdge: SnakeState = { cells: [9, 8, 7, 6, 5].map((x) => ({ x, y: 5 })), dir: "right" };
    const turned = stepSnake(atEdge, 10, 10, straight);
    expect(["up", "down"]).toContain(turned.dir);
    expect(turned.cells[0].x).toBe(9);
  });

  it("turns now and then of its own accord", () => {
    const start: SnakeState = { cells: [4, 3, 2, 1, 0].map((x) => ({ x, y: 5 })), dir: "right" };
    const next = stepSnake(start, 10, 10, () => 0);
    expect(["up", "down"]).toContain(next.dir);
  });

  it("avoids its own body when it has another way", () => {
    // Head at (1,1) heading up, the body curled round below and to the left of it.
    const curled: SnakeState = {
      cells: [
        { x: 1, y: 1 },
        { x: 1, y: 2 },
        { x: 0, y: 2 },
        { x: 0, y: 1 },
        { x: 0, y: 0 },
      ],
      dir: "up",
    };
    // The tail (0,0) moves away, so going left onto (0,1) is blocked but up to (1,0) is free.
    for (let i = 0; i < 20; i++) {
      const next = stepSnake(curled, 5, 5, seeded(i));
      expect(next.cells[0]).not.toEqual({ x: 0, y: 1 });
    }
  });

  it("starts afresh when the panel shrank under it", () => {
    const far: SnakeState = { cells: [30, 29, 28, 27, 26].map((x) => ({ x, y: 20 })), dir: "right" };
    const next = stepSnake(far, 10, 5, seeded(1));
    expect(next.cells).toHaveLength(SNAKE_LENGTH);
    for (const cell of next.cells) expect(inBounds(cell, 10, 5)).toBe(true);
  });

  it("keeps moving inside a grid one cell wide", () => {
    run(1, 8, 200, 3, (_before, after) => {
      expect(after.cells).toHaveLength(SNAKE_LENGTH);
      for (const cell of after.cells) expect(inBounds(cell, 1, 8)).toBe(true);
    });
  });
});
