import path from "node:path";
import { describe, expect, it } from "vitest";
import { mockedModules } from "../../vitest.projects";

describe("mockedModules (what the setup file undoes after each file, vitest.projects.ts)", () => {
  const modules = mockedModules(path.resolve(__dirname, "..", ".."));

  it("names an app module a file mocks by its alias, and one it mocks by a relative path by the same alias", () => {
    // src/features/*: vi.mock("@/lib/chain/queries", ...); src/lib/tx/runner.test.ts: vi.mock("./runner", ...).
    expect(modules).toContain("@/lib/chain/queries");
    expect(modules).toContain("@/lib/tx/runner");
    // src/lib/auth/firebase.test.ts: vi.doMock("./firebaseSdk", ...).
    expect(modules).toContain("@/lib/auth/firebaseSdk");
    expect(modules.filter((m) => m.startsWith("."))).toEqual([]);
  });
});
