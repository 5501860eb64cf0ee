import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from "yaml";
import type { z } from "zod";
import type { ScenarioSummary } from "./index";
import { ScenarioSchema, type Scenario } from "./schema";

/*
 * Reading a scenario file: YAML (or JSON, which YAML reads too), checked by the schema. A wrong
 * file is refused with its file, line and field, and a sentence; nothing is sent.
 */

/** The repository's root, where `scenarios/` is. */
const ROOT = path.resolve(__dirname, "..", "..", "..", "..");
/** The shipped scenarios. */
export const SCENARIOS_DIR = path.join(ROOT, "scenarios");
/** What `npm start` and the seed apply. */
export const DEFAULT_SCENARIO = path.join(SCENARIOS_DIR, "default.yaml");

const EXTENSIONS = [".yaml", ".yml", ".json"];

export interface FileProblem {
  /** 1-based; null when the file has no line for it (an empty file). */
  line: number | null;
  /** The field's path as the file writes it: "balances.alice", "history.transfers[2].amount". */
  field: string;
  message: string;
}

/** A file that is not a scenario: each problem as "scenarios/x.yaml, line 12, balances.alice: must be ...". */
export class ScenarioFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: FileProblem[],
  ) {
    super(problems.map((p) => describeProblem(file, p)).join("\n"));
    this.name = "ScenarioFileError";
  }
}

function describeProblem(file: string, p: FileProblem): string {
  return [file, p.line === null ? null : `line ${p.line}`, p.field || null].filter((x) => x !== null).join(", ") + `: ${p.message}`;
}

/** A path as people read it: repo-relative inside the repository, else as given. */
export function shownFile(file: string): string {
  const absolute = path.resolve(file);
  const relative = path.relative(ROOT, absolute);
  return relative.startsWith("..") || path.isAbsolute(relative) ? file : relative.split(path.sep).join("/");
}

/** The scenario's name: its file's name without the extension. */
export function scenarioName(file: string): string {
  return path.basename(file).replace(/\.(ya?ml|json)$/i, "");
}

/** Reads and checks a scenario file; throws ScenarioFileError naming the file, line and field. */
export function loadScenario(file: string): Scenario {
  const shown = shownFile(file);
  if (!existsSync(file)) throw new ScenarioFileError(shown, [{ line: null, field: "", message: "there is no such file" }]);
  if (!EXTENSIONS.some((e) => file.toLowerCase().endsWith(e))) {
    throw new ScenarioFileError(shown, [{ line: null, field: "", message: `a scenario file ends in ${EXTENSIONS.join(", ")}` }]);
  }
  return parseScenario(readFileSync(file, "utf8"), shown, scenarioName(file));
}

/** Checks a scenario's text; `file` is only for the messages. */
export function parseScenario(text: string, file: string, name: string): Scenario {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ScenarioFileError(
      file,
      doc.errors.map((e) => ({
        line: lines.linePos(e.pos[0]).line,
        field: "",
        message: `this is not readable YAML or JSON (${e.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "")})`,
      })),
    );
  }
  keepNumbersAsWritten(doc);
  const result = ScenarioSchema.safeParse(doc.toJS() ?? undefined);
  if (result.success) return { ...result.data, name, file };
  throw new ScenarioFileError(
    file,
    result.error.issues.map((issue) => problemOf(issue, doc, lines)),
  );
}

/**
 * YAML reads 9949.28375 as a float; an amount must keep its digits as written. A number whose
 * text would not come back the same is kept as the text (an amount checks it; a count refuses it).
 */
function keepNumbersAsWritten(doc: Document): void {
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === "number" && node.source !== undefined && String(node.value) !== node.source) {
        node.value = node.source;
      }
    },
  });
}

function problemOf(issue: z.core.$ZodIssue, doc: Document, lines: LineCounter): FileProblem {
  const segments = issue.path.map((p) => (typeof p === "symbol" ? String(p) : p));
  // An unknown field is named itself, at its own line.
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0];
    return {
      line: lineOf(keyNode(doc, segments, key) ?? nodeAt(doc, segments), lines),
      field: fieldName([...segments, key]),
      message: issue.message,
    };
  }
  return { line: lineOf(nodeAt(doc, segments), lines), field: fieldName(segments), message: issue.message };
}

/** The deepest node along `segments` (a missing field: its parent). */
function nodeAt(doc: Document, segments: (string | number)[]): Node | null {
  let node: unknown = doc.contents;
  for (const segment of segments) {
    const next = isMap(node) || isSeq(node) ? node.get(segment, true) : undefined;
    if (next === undefined || next === null) break;
    node = next;
  }
  return (node as Node | null) ?? null;
}

function keyNode(doc: Document, segments: (string | number)[], key: string): Node | null {
  const parent = nodeAt(doc, segments);
  if (!isMap(parent)) return null;
  const pair = parent.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
  return (pair?.key as Node | undefined) ?? null;
}

function lineOf(node: Node | null, lines: LineCounter): number | null {
  return node?.range ? lines.linePos(node.range[0]).line : null;
}

/** balances.alice, history.transfers[2].amount, safes."Operations Safe".threshold */
function fieldName(segments: (string | number)[]): string {
  return segments
    .map((s, i) => (typeof s === "number" ? `[${s}]` : `${i === 0 ? "" : "."}${/^[\w-]+$/.test(s) ? s : JSON.stringify(s)}`))
    .join("");
}

/** The shipped scenarios (scenarios/*.yaml), each with its header's sentence; a broken one is listed with its problem. */
export function listScenarios(dir: string = SCENARIOS_DIR): ScenarioSummary[] {
  return readdirSync(dir)
    .filter((f) => EXTENSIONS.some((e) => f.endsWith(e)))
    .sort()
    .map((f) => {
      const file = path.join(dir, f);
      try {
        const scenario = loadScenario(file);
        return { name: scenario.name, file: shownFile(file), description: scenario.description };
      } catch (error) {
        return { name: scenarioName(f), file: shownFile(file), description: `(not a valid scenario: ${(error as Error).message})` };
      }
    });
}
