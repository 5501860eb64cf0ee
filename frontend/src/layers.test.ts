import { describe, expect, it } from "vitest";

/**
 * The dashboard's layers (docs/ARCHITECTURE.md): app -> features -> components -> lib. A layer
 * imports only those below it, and a feature never imports another feature; what two features
 * need goes down to components/ or lib/. Tests are held to the same rule as the code beside them.
 */
const sources = import.meta.glob(["./**/*.{ts,tsx}", "!./**/*.d.ts"], { query: "?raw", import: "default", eager: true }) as Record<string, string>;

/** Every module a file names (static and dynamic imports, re-exports), as a path under src/. */
function importsOf(file: string, text: string): string[] {
  const here = file.slice(2).split("/").slice(0, -1);
  const found: string[] = [];
  for (const match of text.matchAll(/\bfrom\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)|^import\s+"([^"]+)"/gm)) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (spec.startsWith("@/")) found.push(spec.slice(2));
    else if (spec.startsWith(".")) {
      const parts = [...here];
      for (const step of spec.split("/")) {
        if (step === "..") parts.pop();
        else if (step !== ".") parts.push(step);
      }
      found.push(parts.join("/"));
    }
  }
  return found;
}

/** The layer of a path under src/: 'app', 'feature:<name>', 'components', 'lib', 'test' or another top-level name. */
function layerOf(path: string): string {
  const [top, second] = path.split("/");
  return top === "features" ? `feature:${second}` : top;
}

/** What a file of layer `own` may import. */
function mayImport(own: string, target: string): boolean {
  if (own.startsWith("feature:")) return target !== "app" && (!target.startsWith("feature:") || target === own);
  if (own === "lib") return target === "lib";
  if (own === "components") return target === "components" || target === "lib";
  if (own === "test") return target !== "app" && !target.startsWith("feature:");
  return true; // app and main.tsx compose everything
}

describe("the dashboard's layers", () => {
  const crossings: string[] = [];
  for (const [file, text] of Object.entries(sources)) {
    const own = layerOf(file.slice(2));
    const isTest = /\.test\.tsx?$/.test(file);
    for (const target of importsOf(file, text).map(layerOf)) {
      // Any test may use the shared test helpers (src/test), which sit beside the layers.
      if (isTest && target === "test") continue;
      if (!mayImport(own, target)) crossings.push(`${file.slice(2)} -> ${target}`);
    }
  }

  it("reads the source files", () => {
    expect(Object.keys(sources).length).toBeGreaterThan(100);
  });

  it("lib imports neither components nor features, components no feature, and no feature another", () => {
    expect(crossings).toEqual([]);
  });
});
