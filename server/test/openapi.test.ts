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
import { MAX_SERIAL_ID } from "@common/api/schemas";
import { checkWithDocument } from "./documentCheck";
import { call, emailUser, startTestServer } from "./helpers";

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

/**
 * Issue 29: what the document promises, the server holds. Every request and answer of the suite
 * goes through the OpenAPI document's check too (documentCheck.ts, from the request helpers); these
 * show where the two used to part, and that the check catches a document that drifts.
 */
describe("The OpenAPI document and the server agree on which requests are valid", () => {
  let server: RunningServer;
  let token: string;
  before(async function () {
    this.timeout(120_000);
    server = await startTestServer();
    token = (await emailUser()).idToken;
  });
  after(() => server?.close());

  type Doc = {
    paths: Record<string, Record<string, { parameters?: { name: string; schema: Record<string, unknown> }[]; requestBody?: never }>>;
  };
  const doc = () => JSON.parse(JSON.stringify(openApiDocument())) as Doc;
  const bodySchema = (route: string, method: string) =>
    (doc().paths[route][method].requestBody as unknown as { content: Record<string, { schema: Record<string, unknown> }> }).content[
      "application/json"
    ].schema;

  it("an id's real bound (the integer column's 2,147,483,647) is in the document, and the server's refusal names it", async () => {
    for (const [route, method] of [
      ["/api/contacts/{id}", "patch"],
      ["/api/contacts/{id}", "delete"],
      ["/api/alerts/rules/{id}", "delete"],
      ["/api/bank/deposits/{id}", "get"],
    ]) {
      const id = doc().paths[route][method].parameters!.find((p) => p.name === "id")!;
      expect(id.schema, `${method} ${route}`).to.include({ type: "integer", minimum: 1, maximum: MAX_SERIAL_ID });
    }
    const sentence = "Invalid request path: id: must be a contact id: a whole number from 1 to 2,147,483,647";
    for (const id of ["2147483648", "9999999999", "0", "1.5", "abc"]) {
      const answer = await call(server, "DELETE", `/api/contacts/${id}`, { token });
      expect(answer.status, id).to.equal(400);
      expect(answer.body.error, id).to.equal(sentence);
    }
    // The largest id is valid by both: no such contact.
    expect((await call(server, "DELETE", `/api/contacts/${MAX_SERIAL_ID}`, { token })).status).to.equal(404);
  });

  it("POST /api/contacts declares what the server checks: name and address required, the name 1 to 100 characters, notes at most 500", async () => {
    const schema = bodySchema("/api/contacts", "post") as { required: string[]; properties: Record<string, Record<string, unknown>> };
    expect(schema.required).to.deep.equal(["name", "address"]);
    expect(schema.properties.name).to.include({ type: "string", minLength: 1, maxLength: 100 });
    expect(schema.properties.notes).to.include({ maxLength: 500 });
    const A = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    for (const [what, body, error] of [
      ["{}", {}, "Missing information - Please provide both name and address"],
      ["an empty name", { name: "", address: A }, "Missing information - Please provide both name and address"],
      ["a 5,000-character name", { name: "n".repeat(5000), address: A }, "Name too long - Please keep the name to 100 characters or fewer"],
    ] as const) {
      // call() checks each against the document too: the document must call it invalid.
      const answer = await call(server, "POST", "/api/contacts", { token, body });
      expect(answer.status, what).to.equal(400);
      expect(answer.body.error, what).to.equal(error);
    }
    // 100 emoji are 100 characters to both (JSON Schema counts code points; so does the server).
    expect((await call(server, "POST", "/api/contacts", { token, body: { name: "😀".repeat(100), address: A } })).status).to.equal(201);
  });

  it("one address rule for every address parameter: a wrong EIP-55 checksum is refused by history, its export and rewards alike", async () => {
    const A = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    const wrongChecksum = `${A.slice(0, -1)}D`;
    const sentence =
      "Invalid request path: address: has a wrong checksum (its mix of upper and lower case does not match EIP-55): check it for a typo, or send it in lower case";
    for (const path of [
      `/api/accounts/${wrongChecksum}/history`,
      `/api/accounts/${wrongChecksum}/history/export`,
      `/api/rewards/${wrongChecksum}`,
    ]) {
      const answer = await call(server, "GET", path, { token });
      expect(answer.status, path).to.equal(400);
      expect(answer.body.error, path).to.equal(sentence);
    }
    for (const address of [A, A.toLowerCase(), `0x${A.slice(2).toUpperCase()}`]) {
      expect((await call(server, "GET", `/api/accounts/${address}/history`)).status, address).to.equal(200);
      expect((await call(server, "GET", `/api/rewards/${address}`, { token })).status, address).to.equal(200);
    }
    const short = await call(server, "GET", "/api/accounts/0x12/history");
    expect(short.body.error).to.equal("Invalid request path: address: must be 0x followed by 40 hex characters");
  });

  it("the document's check catches a document that promises what the server refuses, or refuses what it takes", () => {
    // The document as it was: ids as up to 10 digits, the contact's fields all optional.
    const before = doc();
    for (const method of ["patch", "delete"])
      before.paths["/api/contacts/{id}"][method].parameters!.find((p) => p.name === "id")!.schema = {
        type: "string",
        pattern: "^\\d{1,10}$",
      };
    const post = bodySchema("/api/contacts", "post");
    delete post.required;
    (before.paths["/api/contacts"].post as { requestBody?: unknown }).requestBody = {
      required: true,
      content: { "application/json": { schema: post } },
    };
    const refused = { success: false, error: "Invalid request path: id: must be a contact id: a whole number from 1 to 2,147,483,647" };
    expect(() =>
      checkWithDocument({ method: "DELETE", path: "/api/contacts/2147483648" }, 400, refused, "application/json", before),
    ).to.throw(/the declaration refuses this request \(id: .*\), but the OpenAPI document calls it valid/);
    expect(() =>
      checkWithDocument(
        { method: "POST", path: "/api/contacts", contentType: "application/json", body: "{}" },
        400,
        refused,
        "application/json",
        before,
      ),
    ).to.throw(/but the OpenAPI document calls it valid/);
    // The server's own document agrees with both refusals.
    expect(() =>
      checkWithDocument({ method: "DELETE", path: "/api/contacts/2147483648" }, 400, refused, "application/json"),
    ).not.to.throw();
    // A request the document calls invalid that the server took; an answer the document does not describe.
    expect(() =>
      checkWithDocument({ method: "DELETE", path: "/api/contacts/0" }, 200, { success: true, id: 0 }, "application/json"),
    ).to.throw(/calls this request invalid, but the server took it/);
    expect(() => checkWithDocument({ method: "GET", path: "/api/live" }, 200, { status: "live", extra: 1 }, "application/json")).to.throw(
      /does not match the OpenAPI document/,
    );
    expect(() => checkWithDocument({ method: "GET", path: "/api/live" }, 409, { success: false, error: "x" }, "application/json")).to.throw(
      /lists no 409 answer/,
    );
    expect(() => checkWithDocument({ method: "GET", path: "/api/live" }, 200, { status: "live" }, "application/json")).not.to.throw();
  });
});
