/**
 * A scenario file's schema (server/src/services/scenarios/schema.ts): every field, wrong, is
 * refused with the file, the line and the field, and a sentence; nothing here reaches a chain. The
 * last test walks the schema itself, so a field added without a case here fails it.
 */
import { expect } from "chai";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { z } from "zod";
import { loadScenario, parseScenario, ScenarioFileError } from "../server/src/services/scenarios/load";
import { ScenarioSchema } from "../server/src/services/scenarios/schema";
import { BASE, CASES } from "./fixtures/scenarioBadFiles";

const FILE = "scenarios/table.yaml";

function problemsOf(text: string) {
  try {
    parseScenario(text, FILE, "table");
  } catch (error) {
    if (error instanceof ScenarioFileError) return error;
    throw error;
  }
  throw new Error("the file was accepted");
}

describe("scenario files: a wrong file is refused with its file, line and field", () => {
  for (const c of CASES) {
    const text = c.whole ? c.yaml : BASE + c.yaml;
    it(`${c.field || "the file"}: ${String(c.message).slice(0, 90)}`, () => {
      const error = problemsOf(text);
      const problem = error.problems.find(
        (p) => p.field === c.field && (typeof c.message === "string" ? p.message === c.message : c.message.test(p.message)),
      );
      expect(problem, `problems: ${error.message}`).to.not.equal(undefined);
      expect(problem!.line ?? 0).to.equal(c.line);
      const where = [FILE, c.line ? `line ${c.line}` : null, c.field || null].filter(Boolean).join(", ");
      expect(error.message).to.contain(`${where}: ${problem!.message}`);
    });
  }

  it("accepts the base file and keeps an amount's digits as written (YAML would read 9949.28375000000000001 as a float)", () => {
    const scenario = parseScenario(`${BASE}balances:\n  alice: 9949.28375000000000001\n  admin: 1000\n`, FILE, "table");
    expect(scenario.balances).to.deep.equal({ alice: "9949.28375000000000001", admin: "1000" });
    expect(scenario.name).to.equal("table");
  });

  it("reads JSON too, naming the line of a wrong field", () => {
    const json = JSON.stringify({ description: "d", accounts: { admin: { index: 0 } }, paused: "no" }, null, 2);
    const error = problemsOf(json);
    expect(error.message).to.equal(`${FILE}, line 8, paused: must be true or false`);
  });

  it("names the file it read, from the repository's root, and refuses one that is not there or not YAML or JSON", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "usdx-scenario-"));
    try {
      writeFileSync(path.join(dir, "x.yaml"), `${BASE}paused: maybe\n`);
      expect(() => loadScenario(path.join(dir, "x.yaml"))).to.throw(ScenarioFileError, /x\.yaml, line 6, paused: must be true or false$/);
      expect(() => loadScenario("scenarios/nowhere.yaml")).to.throw("scenarios/nowhere.yaml: there is no such file");
      writeFileSync(path.join(dir, "x.txt"), BASE);
      expect(() => loadScenario(path.join(dir, "x.txt"))).to.throw(/x\.txt: a scenario file ends in \.yaml, \.yml, \.json$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("takes scenarios/README.md's example, one of each field, as a valid scenario", () => {
    const readme = readFileSync(path.join(__dirname, "..", "scenarios", "README.md"), "utf8");
    const example = /```yaml\n([\s\S]*?)```/.exec(readme)![1];
    const scenario = parseScenario(example, "scenarios/README.md", "readme");
    const fields = schemaFields(ScenarioSchema).filter((f) => !f.includes(".") && !f.includes("["));
    expect(
      Object.keys(scenario)
        .filter((k) => k !== "name" && k !== "file")
        .sort(),
    ).to.deep.equal(fields.sort());
  });

  it("covers every field of the schema", () => {
    const covered = new Set(CASES.map((c) => generalize(c.field)));
    const missing = schemaFields(ScenarioSchema).filter((f) => !covered.has(f));
    expect(missing, "fields without a case in the table").to.deep.equal([]);
  });
});

/** accounts.carol.index -> accounts.*.index; history.transfers[0].from -> history.transfers[].from */
function generalize(field: string): string {
  const RECORDS = ["accounts", "safes", "balances"];
  return field
    .replace(/\[\d+\]/g, "[]")
    .replace(/"[^"]*"/g, "NAME")
    .split(".")
    .map((part, i, parts) => (i > 0 && RECORDS.includes(parts[i - 1]) && i === 1 ? "*" : part))
    .join(".")
    .replace(/^roles\.[A-Z_]+/, "roles.*");
}

/** Every field path of the schema, records' keys as *, lists' items as []. */
function schemaFields(schema: z.ZodType): string[] {
  const out = new Set<string>();
  const walk = (node: z.ZodType, at: string) => {
    const def = (node as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
    switch (def.type) {
      case "object":
        if (at) out.add(at);
        for (const [key, child] of Object.entries(def.shape as Record<string, z.ZodType>)) walk(child, at ? `${at}.${key}` : key);
        return;
      case "record":
        out.add(at);
        return walk(def.valueType as z.ZodType, `${at}.*`);
      case "array":
        out.add(at);
        return walk(def.element as z.ZodType, `${at}[]`);
      case "union":
        out.add(at);
        for (const option of def.options as z.ZodType[]) walk(option, at);
        return;
      case "optional":
      case "default":
      case "nullable":
        return walk(def.innerType as z.ZodType, at);
      case "pipe":
        return walk(
          (def.in as { _zod: { def: { type: string } } })._zod.def.type === "transform" ? (def.out as z.ZodType) : (def.in as z.ZodType),
          at,
        );
      default:
        out.add(at);
    }
  };
  walk(schema, "");
  return [...out].filter((f) => f !== "");
}
