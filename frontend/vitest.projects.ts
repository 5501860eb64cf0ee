import { globSync, readFileSync } from "node:fs";
import path from "node:path";
import { configDefaults, type TestProjectInlineConfiguration } from "vitest/config";

/** The dashboard's tests, under frontend/. */
const TEST_FILES = ["src/**/*.test.{ts,tsx}"];

// vi.mock or vi.doMock called in the file (a comment that names one counts too: that file stays isolated).
const MOCKS_A_MODULE = /\bvi\.(mock|doMock)\(/;

/** The test files under `root` that replace a module with vi.mock or vi.doMock, as paths from `root`. */
export function filesThatMockModules(root: string): string[] {
  return globSync(TEST_FILES, { cwd: root })
    .filter((file) => MOCKS_A_MODULE.test(readFileSync(path.join(root, file), "utf8")))
    .map((file) => file.split(path.sep).join("/"))
    .sort();
}

/**
 * The suite as two projects. Starting a worker and jsdom and loading React, Radix and the testing
 * libraries again for each file took a third of the suite's time, so the files share one worker (one
 * per --maxWorkers) and all of that ("shared", isolate: false); the setup file (src/test/setup.ts)
 * undoes what a file leaves behind and has the app's own modules load afresh for the next file. Not
 * the files that mock a module: in a shared worker Vitest keeps a file's module mocks for the files
 * after it, and a module that another file loaded first ignores a mock, so each of those files keeps
 * a fresh worker ("isolated").
 */
export function testProjects(root: string): TestProjectInlineConfiguration[] {
  const mocking = filesThatMockModules(root);
  // Each project names its files: `extends` would add a shared `include` to each project's own.
  return [
    { extends: true, test: { name: "shared", include: TEST_FILES, exclude: [...configDefaults.exclude, ...mocking], isolate: false } },
    { extends: true, test: { name: "isolated", include: mocking } },
  ];
}
