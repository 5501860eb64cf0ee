import { globSync, readFileSync } from "node:fs";
import path from "node:path";
import type { TestProjectInlineConfiguration } from "vitest/config";

/** The dashboard's tests, under frontend/. */
const TEST_FILES = ["src/**/*.test.{ts,tsx}"];

/** A module replaced with vi.mock or vi.doMock (a comment that names one counts too: undoing a mock that was never made is harmless). */
const MOCKED_MODULE = /\bvi\.(?:mock|doMock)\(\s*["']([^"']+)["']/g;

/** A test file under `root`: its path relative to it (with /), and its text. */
interface TestFile {
  file: string;
  text: string;
}

/** Every test file under `root`, read once for what the projects need to know of them. */
export function readTestFiles(root: string): TestFile[] {
  return globSync(TEST_FILES, { cwd: root }).map((file) => ({
    file: file.split(path.sep).join("/"),
    text: readFileSync(path.join(root, file), "utf8"),
  }));
}

/**
 * Every module a test file under `root` replaces with vi.mock or vi.doMock, as the "@/..." specifier
 * of the app's module (a relative one is resolved from its file), or a package's name.
 */
export function mockedModules(root: string, files: TestFile[] = readTestFiles(root)): string[] {
  const specifiers = files.flatMap(({ file, text }) => {
    const dir = path.posix.dirname(file);
    return [...text.matchAll(MOCKED_MODULE)].map(([, specifier]) =>
      specifier.startsWith(".") ? `@/${path.posix.relative("src", path.posix.join(dir, specifier))}` : specifier,
    );
  });
  return [...new Set(specifiers)].sort();
}

declare module "vitest" {
  export interface ProvidedContext {
    /** mockedModules(): what the setup file undoes after each file. */
    mockedModules: string[];
  }
}

/** A file's own choice of DOM, in Vitest's docblock: `// @vitest-environment jsdom` on its first line. */
const JSDOM_DOCBLOCK = /^\/\/ @vitest-environment jsdom\b/;

/** The test files under `root` that ask for jsdom (JSDOM_DOCBLOCK), relative to it. */
export function jsdomFiles(root: string, files: TestFile[] = readTestFiles(root)): string[] {
  return files
    .filter(({ text }) => JSDOM_DOCBLOCK.test(text))
    .map(({ file }) => file)
    .sort();
}

/**
 * The suite as projects whose files share one worker (one per --maxWorkers) and its DOM
 * (isolate: false): starting a worker and a DOM and loading React, Radix and the testing libraries
 * again for each file took a third of the suite's time. The setup file (src/test/setup.ts) undoes
 * what a file leaves behind: stubs, storage, and the module mocks, which Vitest would otherwise keep
 * for the files after it (so it is given every mocked module's name); and it has the app's own
 * modules load afresh for the next file, so a mock applies to a module another file loaded first.
 *   - "shared": happy-dom (vite.config.mts), which runs this suite in about two thirds of jsdom's CPU.
 *   - "jsdom": the few files that need what jsdom does as a browser does and happy-dom does not (each
 *     says why under its docblock), in a project of their own that runs after "shared": a worker
 *     switching DOMs between files sets up a new one for every file.
 */
export function testProjects(root: string): TestProjectInlineConfiguration[] {
  const files = readTestFiles(root);
  const provide = { mockedModules: mockedModules(root, files) };
  const jsdom = jsdomFiles(root, files);
  return [
    { extends: true, test: { name: "shared", include: TEST_FILES, exclude: jsdom, isolate: false, provide, sequence: { groupOrder: 0 } } },
    // After "shared", not beside it: run together, the two share a worker and switch DOMs file by file.
    { extends: true, test: { name: "jsdom", include: jsdom, environment: "jsdom", isolate: false, provide, sequence: { groupOrder: 1 } } },
  ];
}
