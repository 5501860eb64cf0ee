/**
 * The snake that crawls over the /auth branding panel: constants from PRODUCT.md section 9 and the pure
 * stepping logic, kept apart from the canvas so it can be tested without a browser.
 */

/** PRODUCT.md section 9: the grid the snake moves on, in CSS pixels. */
export const SNAKE_GRID_PX = 20;
/** PRODUCT.md section 9: the snake moves one cell every this many animation frames. */
export const SNAKE_STEP_FRAMES = 8;
/** PRODUCT.md section 9: the animation starts this long after the panel appears. */
export const SNAKE_START_DELAY_MS = 3000;
/** PRODUCT.md section 9: cells in the snake, head included. */
export const SNAKE_LENGTH = 5;
/** Not in the spec: how often the snake turns of its own accord, so its path looks alive. */
export const SNAKE_TURN_CHANCE = 0.15;

export interface Cell {
  x: number;
  y: number;
}

export type Direction = "up" | "down" | "left" | "right";

export interface SnakeState {
  /** Head first; always SNAKE_LENGTH cells. */
  cells: Cell[];
  dir: Direction;
}

/** A random number in [0, 1), as Math.random; tests pass a seeded one. */
export type Rng = () => number;

const DELTA: Record<Direction, Cell> = { up: { x: 0, y: -1 }, down: { x: 0, y: 1 }, left: { x: -1, y: 0 }, right: { x: 1, y: 0 } };
const OPPOSITE: Record<Direction, Direction> = { up: "down", down: "up", left: "right", right: "left" };
const PERPENDICULAR: Record<Direction, Direction[]> = {
  up: ["left", "right"],
  down: ["left", "right"],
  left: ["up", "down"],
  right: ["up", "down"],
};

/** How many whole grid cells fit in a panel of this size (at least one each way). */
export function gridSize(widthPx: number, heightPx: number): { cols: number; rows: number } {
  return { cols: Math.max(1, Math.floor(widthPx / SNAKE_GRID_PX)), rows: Math.max(1, Math.floor(heightPx / SNAKE_GRID_PX)) };
}

const inBounds = (c: Cell, cols: number, rows: number) => c.x >= 0 && c.y >= 0 && c.x < cols && c.y < rows;
const same = (a: Cell, b: Cell) => a.x === b.x && a.y === b.y;

/** A fresh snake lying horizontally on a random row, heading right. */
export function createSnake(cols: number, rows: number, rng: Rng = Math.random): SnakeState {
  const y = Math.min(rows - 1, Math.floor(rng() * rows));
  // Leave room for the body to the left of the head where the grid is wide enough.
  const room = Math.max(1, cols - SNAKE_LENGTH + 1);
  const headX = Math.min(cols - 1, SNAKE_LENGTH - 1 + Math.floor(rng() * room));
  const cells = Array.from({ length: SNAKE_LENGTH }, (_, i) => ({ x: Math.max(0, headX - i), y }));
  return { cells, dir: "right" };
}

/** Picks a random element; rng() may in theory return values close to 1, so clamp the index. */
const pick = <T>(items: T[], rng: Rng): T => items[Math.min(items.length - 1, Math.floor(rng() * items.length))];

/**
 * Moves the snake one cell. It keeps its direction, or now and then turns left or right; at an edge
 * it turns instead of leaving the grid. It never turns back onto its own neck, and avoids crossing
 * its body when it has another way. A snake left outside the grid (the panel shrank) starts afresh.
 */
export function stepSnake(state: SnakeState, cols: number, rows: number, rng: Rng = Math.random): SnakeState {
  if (cols < 1 || rows < 1) return state;
  if (!state.cells.every((c) => inBounds(c, cols, rows))) return createSnake(cols, rows, rng);

  const [head, neck] = state.cells;
  const target = (dir: Direction): Cell => ({ x: head.x + DELTA[dir].x, y: head.y + DELTA[dir].y });
  // Never back the way it came: the opposite direction is not a candidate, and the neck check
  // covers a state whose direction does not match its body.
  const forwardish = ([state.dir, ...PERPENDICULAR[state.dir]] as Direction[]).filter((d) => {
    const t = target(d);
    return inBounds(t, cols, rows) && !(neck && same(t, neck));
  });
  // The tail moves away this step, so only the cells before it block the way.
  const body = state.cells.slice(1, -1);
  const clear = forwardish.filter((d) => !body.some((c) => same(c, target(d))));
  const options = clear.length > 0 ? clear : forwardish;

  if (options.length === 0) {
    // A dead end (a grid one cell wide): the tail becomes the head, which is not a step backwards
    // over the neck but the only way to keep moving.
    if (cols === 1 && rows === 1) return state;
    const reversed = [...state.cells].reverse();
    const tail = reversed[0];
    const beforeTail = reversed[1];
    const dir = (Object.keys(DELTA) as Direction[]).find(
      (d) => beforeTail && tail.x - beforeTail.x === DELTA[d].x && tail.y - beforeTail.y === DELTA[d].y,
    );
    return { cells: reversed, dir: dir ?? OPPOSITE[state.dir] };
  }

  const keepGoing = options.includes(state.dir) && rng() >= SNAKE_TURN_CHANCE;
  const turns = options.filter((d) => d !== state.dir);
  const dir = keepGoing || turns.length === 0 ? state.dir : pick(turns, rng);
  return { cells: [target(dir), ...state.cells.slice(0, -1)], dir };
}
