import { readFileSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { expect } from "chai";
import type { Express } from "express";
import { API } from "@common/api";
import { type Endpoint, splitKey } from "@common/api/endpoint";
import { PATH_PARAM } from "@common/api/keys";
import { createApp } from "../src/app";
import type { RunningServer } from "../src/index";
import { createLogger } from "../src/lib/logger";
import { openApiDocument, openApiPath } from "../src/routes/openapiDocument";
import { call, startTestServer } from "./helpers";

/**
 * Issue 16: one declaration of the API (common/api). The server mounts exactly the declared
 * routes, each where its declaration says; the generated document is valid OpenAPI 3.1, is
 * served at GET /api/openapi.json and is the one in docs/openapi.json. (That every answer matches
 * its declaration is checked on every call of the suite: answerCheck.ts.)
 */

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  rawPath?: string;
}

/** Every route the app mounts, as "METHOD /full/path", by walking Express's router stacks. */
function mountedRoutes(app: Express): string[] {
  const found: string[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods))
          if (method !== "_all")
            found.push(`${method.toUpperCase()} ${prefix}${layer.route.path === "/" && prefix ? "" : layer.route.path}`);
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack, prefix + (layer.rawPath && layer.rawPath !== "/" ? layer.rawPath : ""));
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, "");
  return found.sort();
}

describe("The API's declaration and its OpenAPI document", () => {
  let server: RunningServer;
  before(async function () {
    this.timeout(120_000);
    server = await startTestServer();
  });
  after(() => server?.close());

  it("the server mounts every declared endpoint, at its declared path, and nothing undeclared", () => {
    const app = createApp(server.services, createLogger("silent"));
    const mounted = mountedRoutes(app);
    const declared = Object.keys(API).sort();
    expect(
      mounted.filter((route) => !declared.includes(route)),
      "mounted but not declared in common/api",
    ).to.deep.equal([]);
    expect(
      declared.filter((key) => !mounted.includes(key)),
      "declared in common/api but not mounted",
    ).to.deep.equal([]);
    expect(new Set(mounted).size, "a route mounted twice").to.equal(mounted.length);
  });

  it("a route the walk cannot see would still be found: each declared path answers, not 'No such endpoint'", async () => {
    for (const key of Object.keys(API)) {
      const { method, path: route } = splitKey(key);
      const url = route.replace(PATH_PARAM, "1");
      const res = await fetch(`${server.url}${url}`, {
        method,
        headers: method === "GET" || method === "DELETE" ? {} : { "content-type": "application/json" },
        body: method === "GET" || method === "DELETE" ? undefined : "{}",
      });
      const text = await res.text();
      expect(text, `${key} is not reached at ${url}`).not.to.include("No such endpoint");
    }
  });

  it("every declared endpoint is in the document with its method, and the document has nothing else", () => {
    const doc = openApiDocument();
    const documented = Object.entries(doc.paths ?? {}).flatMap(([route, item]) =>
      Object.keys(item as object)
        .filter((m) => ["get", "post", "patch", "delete", "put"].includes(m))
        .map((m) => `${m.toUpperCase()} ${route}`),
    );
    const declared = Object.keys(API).map((key) => {
      const { method, path: route } = splitKey(key);
      return `${method} ${openApiPath(route)}`;
    });
    expect(documented.sort()).to.deep.equal(declared.sort());
  });

  it("the document is valid OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(JSON.stringify(openApiDocument())));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.equal("3.1");
  });

  it("each operation says who may call it, what it answers and how it fails", () => {
    const doc = openApiDocument();
    for (const [key, endpoint] of Object.entries(API) as [string, Endpoint][]) {
      const { method, path: route } = splitKey(key);
      const operation = (
        doc.paths as Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown>; summary?: string }>>
      )[openApiPath(route)][method.toLowerCase()];
      expect(operation.summary, key).to.be.a("string").and.not.equal("");
      expect(Object.keys(operation.responses), key).to.include(String(endpoint.status ?? 200));
      expect(Object.keys(operation.responses), key).to.include("500");
      if (endpoint.access === "public") expect(operation.security, key).to.equal(undefined);
      else expect(operation.security, key).to.be.an("array").that.does.not.have.lengthOf(0);
    }
  });

  it("GET /api/openapi.json serves the document, and docs/openapi.json is the same (run npm run docs:openapi after changing common/api)", async () => {
    const res = await call(server, "GET", "/api/openapi.json");
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal(JSON.parse(JSON.stringify(openApiDocument())));
    const file = JSON.parse(readFileSync(path.resolve(__dirname, "..", "..", "docs", "openapi.json"), "utf8"));
    expect(file, "docs/openapi.json is out of date: run npm run docs:openapi").to.deep.equal(res.body);
  });

  it("a declared answer that drifts from what the server sends fails the suite's check", async () => {
    const { checkAnswer } = await import("./answerCheck");
    // A renamed field, an undeclared field, an undeclared status: each is caught.
    expect(() => checkAnswer("GET", "/api/live", 200, { status: "live", extra: 1 }, "application/json")).to.throw(
      /does not match its declaration/,
    );
    expect(() => checkAnswer("GET", "/api/roles", 200, { role: [] }, "application/json")).to.throw(/does not match its declaration/);
    expect(() => checkAnswer("GET", "/api/live", 409, { success: false, error: "x" }, "application/json")).to.throw(
      /does not declare status 409/,
    );
    expect(() => checkAnswer("GET", "/api/contacts/export", 200, "Name", "application/json")).to.throw(/declares text\/csv/);
    expect(() => checkAnswer("GET", "/api/live", 200, { status: "live" }, "application/json")).not.to.throw();
  });
});
