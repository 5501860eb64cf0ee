import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { envSchema } from "../src/config/env";
import { SETTINGS_DOC, settingRows, settingsDocument } from "../../scripts/settings-doc";

/**
 * Issue 27: the server's environment is declared once (server/src/config/env.ts), as the API is.
 * docs/SETTINGS.md is its table, written by npm run docs:settings and checked current here, as
 * docs/openapi.json is; .env.example names only declared variables and leaves their secrets
 * empty; and the server's code reads no variable the schema does not declare.
 */

const ROOT = path.resolve(__dirname, "..", "..");

/** Every `NAME=value` line of .env.example, commented out or not. */
function exampleAssignments(): { name: string; value: string }[] {
  return readFileSync(path.join(ROOT, ".env.example"), "utf8")
    .split("\n")
    .map((line) => /^#?\s*([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim()))
    .filter((match) => match !== null)
    .map(([, name, value]) => ({ name, value: value.trim() }));
}

function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

describe("The server's settings: one declaration, its table, and .env.example", () => {
  const rows = settingRows();
  const declared = new Set(rows.map((row) => row.name));

  it("docs/SETTINGS.md is the table generated from the schema", () => {
    const stale = "docs/SETTINGS.md is out of date with server/src/config/env.ts: run npm run docs:settings";
    expect(existsSync(SETTINGS_DOC), stale).to.equal(true);
    expect(readFileSync(SETTINGS_DOC, "utf8"), stale).to.equal(settingsDocument());
  });

  it("declares the same variables on every network, each with a type and a line for the table", () => {
    expect(Object.keys(envSchema("sepolia").shape)).to.deep.equal(Object.keys(envSchema("localhost").shape));
    for (const row of rows) {
      expect(row.type, row.name).to.match(/\S/);
      expect(row.description, row.name).to.match(/^\S.*[.)]$/);
      expect(row.description, `${row.name}: one line, and no table cell breaks`).not.to.match(/[\n|]/);
    }
  });

  it("every variable in .env.example is declared in the schema, and the secrets there are empty or placeholders", () => {
    const assignments = exampleAssignments();
    expect(assignments.length, "the lines of .env.example are read").to.be.greaterThan(40);
    const undeclared = assignments.map(({ name }) => name).filter((name) => !declared.has(name));
    expect(undeclared, "in .env.example but not declared in server/src/config/env.ts").to.deep.equal([]);
    const secrets = new Set(rows.filter((row) => row.secret).map((row) => row.name));
    const filled = assignments.filter(({ name, value }) => secrets.has(name) && value !== "" && !/^<[^<>]*>$/.test(value));
    expect(
      filled.map(({ name }) => name),
      "secrets given a value in .env.example: leave them empty, or a <placeholder>",
    ).to.deep.equal([]);
  });

  it("every variable the server's code names in process.env is declared in the schema", () => {
    const named = new Map<string, string>();
    for (const file of typeScriptFiles(path.join(ROOT, "server", "src"))) {
      const source = readFileSync(file, "utf8");
      for (const match of source.matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[\s*["'`]([A-Z][A-Z0-9_]*)["'`]\s*\])/g)) {
        named.set(match[1] ?? match[2], path.relative(ROOT, file));
      }
    }
    expect(named.size, "the server's reads of process.env are found").to.be.greaterThan(0);
    const undeclared = [...named].filter(([name]) => !declared.has(name)).map(([name, file]) => `${name} (${file})`);
    expect(undeclared, "read by the server but not declared in server/src/config/env.ts").to.deep.equal([]);
  });
});
