import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from "node:zlib";
import { expect } from "chai";
import pino from "pino";
import { PRERENDERED_PAGES } from "../../common/prerenderedPages";
import { contentSecurityPolicy, PREVIEW_HEADERS } from "../../common/securityHeaders";
import { servingEnv } from "../src/config";
import { IMMUTABLE, REVALIDATE, ROUTE_MODULES } from "../src/dashboard";
import { startServer, type RunningServer } from "../src/index";
import { type DashboardBuild, dashboardBuild, INDEX, ROOT_PRELOADS, SCRIPT, SECRET } from "./dashboardBuild";
import { startTestServer, testConfig } from "./helpers";

/** `npm run start:production`: the API server serves a built dashboard beside /api (a fake build: dashboardBuild.ts). */
const ROOT = path.resolve(__dirname, "..", "..");

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A raw request: fetch would normalise "/../" away and decompress the body, which the tests look at. */
function request(
  server: RunningServer,
  rawPath: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: rawPath, method: options.method ?? "GET", headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.once("error", reject);
    req.end();
  });
}

const json = (a: Answer) => JSON.parse(a.body.toString("utf8"));

describe("The built dashboard, served by the API server (npm run start:production)", () => {
  let build: DashboardBuild;
  let dist: string;
  let server: RunningServer;

  before(async () => {
    build = dashboardBuild();
    dist = build.dist;
    server = await startTestServer({ DASHBOARD_DIST: dist });
  });
  after(async () => {
    await server?.close();
    build?.remove();
  });

  describe("headers", () => {
    it("sends the dashboard's Content-Security-Policy (common/securityHeaders.ts) and security headers on the page, deep links and assets", async () => {
      for (const route of ["/", "/payments", "/index.html", "/assets/index-Bx3k9Q.js", "/assets/index-Dq81Za.css", "/robots.txt"]) {
        const answer = await request(server, route);
        expect(answer.status, route).to.equal(200);
        expect(answer.headers["content-security-policy"], route).to.equal(contentSecurityPolicy());
        for (const [name, value] of Object.entries(PREVIEW_HEADERS))
          expect(answer.headers[name.toLowerCase()], `${route} ${name}`).to.equal(value);
        expect(answer.headers["x-powered-by"], route).to.equal(undefined);
      }
    });

    it("leaves the API its own headers (helmet's CSP), not the dashboard's", async () => {
      const answer = await request(server, "/api/health");
      expect(answer.status).to.equal(200);
      expect(answer.headers["content-security-policy"]).to.include("default-src 'self'").and.not.equal(contentSecurityPolicy());
      expect(answer.headers["strict-transport-security"]).to.be.a("string");
      expect(answer.headers["referrer-policy"]).to.equal("no-referrer");
    });

    it("lets browsers keep hashed assets for a year and makes them ask again for index.html", async () => {
      for (const asset of ["/assets/index-Bx3k9Q.js", "/assets/index-Dq81Za.css"]) {
        expect((await request(server, asset)).headers["cache-control"], asset).to.equal(IMMUTABLE);
      }
      expect(IMMUTABLE).to.equal("public, max-age=31536000, immutable");
      for (const page of ["/", "/index.html", "/payments", "/robots.txt"]) {
        expect((await request(server, page)).headers["cache-control"], page).to.equal(REVALIDATE);
      }
      expect(REVALIDATE).to.equal("no-cache");
    });

    it("answers a revalidation of an unchanged index.html with 304", async () => {
      const first = await request(server, "/");
      expect(first.headers.etag).to.be.a("string");
      const again = await request(server, "/contacts", { headers: { "If-None-Match": first.headers.etag! } });
      expect(again.status).to.equal(304);
      expect(again.body.length).to.equal(0);
    });
  });

  describe("compression", () => {
    it("gzips text assets for a browser that accepts gzip, and sends them plain to one that does not", async () => {
      const zipped = await request(server, "/assets/index-Bx3k9Q.js", { headers: { "Accept-Encoding": "gzip" } });
      expect(zipped.headers["content-encoding"]).to.equal("gzip");
      expect(zipped.headers.vary).to.match(/accept-encoding/i);
      expect(zipped.body.length).to.be.lessThan(SCRIPT.length / 4);
      expect(gunzipSync(zipped.body).toString("utf8")).to.equal(SCRIPT);
      expect(zipped.headers["cache-control"]).to.equal(IMMUTABLE);

      const plain = await request(server, "/assets/index-Bx3k9Q.js");
      expect(plain.headers["content-encoding"]).to.equal(undefined);
      expect(plain.body.toString("utf8")).to.equal(SCRIPT);
    });
  });

  describe("compressed ahead of time", () => {
    it("sends the build's brotli copy to a browser that takes br, its gzip copy to one that takes only gzip, the file to one that takes neither", async () => {
      const file = path.join(dist, "assets", "app-Kq2PRE.js");
      for (const [accepts, encoding, copy] of [
        ["gzip, deflate, br, zstd", "br", `${file}.br`],
        ["gzip", "gzip", `${file}.gz`],
        ["identity", undefined, file],
      ] as const) {
        const answer = await request(server, "/assets/app-Kq2PRE.js", { headers: { "Accept-Encoding": accepts } });
        expect(answer.status, accepts).to.equal(200);
        expect(answer.headers["content-encoding"], accepts).to.equal(encoding);
        // The copy's own bytes, with its length: nothing compressed per request.
        expect(answer.body.equals(readFileSync(copy)), accepts).to.equal(true);
        expect(answer.headers["content-length"], accepts).to.equal(String(readFileSync(copy).length));
        expect(answer.headers["content-type"]?.toLowerCase(), accepts).to.equal("text/javascript; charset=utf-8");
        expect(answer.headers["cache-control"], accepts).to.equal(IMMUTABLE);
        expect(answer.headers.vary, accepts).to.match(/accept-encoding/i);
      }
      expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString("utf8")).to.equal(SCRIPT);
    });

    it("sends the page's brotli copy for every client route, revalidated on each load", async () => {
      for (const route of ["/", "/payments", "/tx/0xabc"]) {
        const answer = await request(server, route, { headers: { "Accept-Encoding": "br, gzip" } });
        expect([answer.status, answer.headers["content-encoding"]], route).to.deep.equal([200, "br"]);
        expect(brotliDecompressSync(answer.body).toString("utf8"), route).to.equal(INDEX);
        expect(answer.headers["content-type"]?.toLowerCase(), route).to.equal("text/html; charset=utf-8");
        expect(answer.headers["cache-control"], route).to.equal(REVALIDATE);
      }
    });
  });

  describe("modulepreload", () => {
    it("names the Dashboard's lazily loaded chunks in a Link header with the page at /, leaving out what index.html preloads already", async () => {
      const answer = await request(server, "/");
      expect(answer.headers.link).to.equal(ROOT_PRELOADS);
      for (const route of ["/payments", "/login", "/assets/index-Bx3k9Q.js"])
        expect((await request(server, route)).headers.link, route).to.equal(undefined);
      // The manifest is the build's own, not a file to serve.
      expect((await request(server, "/.vite/manifest.json")).status).to.equal(404);
    });

    it("names modules the dashboard's sources still have", () => {
      for (const sources of Object.values(ROUTE_MODULES))
        for (const source of sources) expect(existsSync(path.join(ROOT, "frontend", source)), source).to.equal(true);
    });
  });

  describe("the single-page app's routes", () => {
    it("answers index.html for a client route (GET and HEAD), which shows its own 404 for unknown ones", async () => {
      const hash = `0x${"ab".repeat(32)}`;
      for (const route of ["/", "/payments", `/tx/${hash}`, "/block/12", "/no/such/page", "/login?next=%2Fadmin"]) {
        const answer = await request(server, route);
        expect(answer.status, route).to.equal(200);
        expect(answer.headers["content-type"], route).to.match(/^text\/html/);
        expect(answer.body.toString("utf8"), route).to.equal(INDEX);
      }
      const head = await request(server, "/contacts", { method: "HEAD" });
      expect(head.status).to.equal(200);
      expect(head.headers["content-type"]).to.match(/^text\/html/);
      expect(head.body.length).to.equal(0);
    });

    it("answers 404, not the page, for a missing file: a script under the page's name would fail in the browser anyway", async () => {
      for (const route of ["/assets/index-old.js", "/assets/nested/x", "/favicon.ico", "/assets"]) {
        const answer = await request(server, route);
        expect(answer.status, route).to.equal(404);
        expect(answer.body.toString("utf8"), route).to.not.include("<html");
      }
    });

    it("still answers an unknown /api path with the API's JSON 404, and other methods as the API does", async () => {
      for (const route of ["/api/nope", "/API/nope", "/api"]) {
        const answer = await request(server, route);
        expect(answer.status, route).to.equal(404);
        expect(json(answer), route).to.deep.equal({ success: false, error: `No such endpoint: GET ${route}` });
      }
      const post = await request(server, "/payments", { method: "POST" });
      expect(post.status).to.equal(404);
      expect(json(post)).to.deep.equal({ success: false, error: "No such endpoint: POST /payments" });
    });

    it("lists no folder", async () => {
      for (const route of ["/assets/", "/assets", "//assets/"]) {
        const answer = await request(server, route);
        expect(answer.status, route).to.equal(404);
        expect(answer.body.toString("utf8"), route).to.not.include("index-Bx3k9Q");
      }
    });
  });

  describe("paths outside the build", () => {
    const attempts = [
      "/../secret.txt",
      "/assets/../../secret.txt",
      "/..%2fsecret.txt",
      "/%2e%2e/secret.txt",
      "/%2e%2e%2fsecret.txt",
      "/%2E%2E%2Fsecret.txt",
      "/assets/..%2f..%2fsecret.txt",
      "/assets/%2e%2e/%2e%2e/secret.txt",
      "/..%5csecret.txt",
      "/%2e%2e%5csecret.txt",
      "/..%252fsecret.txt",
      "/../package.json",
      "/%2e%2e/%2e%2e/package.json",
      "/.env",
      "/%2eenv",
      "/index.html%00.js",
    ];
    for (const attempt of attempts) {
      it(`refuses ${attempt}`, async () => {
        const answer = await request(server, attempt);
        expect(answer.status, attempt).to.be.oneOf([400, 403, 404]);
        const body = answer.body.toString("utf8");
        expect(body).to.not.include(SECRET);
        expect(body).to.not.include('"name": "usdx-dashboard"');
      });
    }
  });
});

describe("A page drawn at build time (the build's login.html and dashboard.html, common/prerenderedPages.ts)", () => {
  const LOGIN = INDEX.replace('<div id="root"></div>', '<div id="root"><main inert><h1>USDX Dashboard</h1></main></div>');
  const DASHBOARD = INDEX.replace(
    '<div id="root"></div>',
    '<div id="root"><div inert data-signed-in-only style="display:none"></div></div>',
  );
  let build: DashboardBuild;
  let server: RunningServer;

  before(async () => {
    build = dashboardBuild();
    for (const [route, page] of [
      ["/login", LOGIN],
      ["/", DASHBOARD],
    ] as const) {
      const file = path.join(build.dist, PRERENDERED_PAGES[route]);
      writeFileSync(file, page);
      writeFileSync(`${file}.br`, brotliCompressSync(page));
    }
    server = await startTestServer({ DASHBOARD_DIST: build.dist });
  });
  after(async () => {
    await server?.close();
    build?.remove();
  });

  it("answers /login with it (its brotli copy, revalidated on each load), and every other route with index.html", async () => {
    for (const route of ["/login", "/login?next=%2Fadmin"]) {
      const answer = await request(server, route, { headers: { "Accept-Encoding": "br, gzip" } });
      expect([answer.status, answer.headers["content-encoding"], answer.headers["cache-control"]], route).to.deep.equal([
        200,
        "br",
        REVALIDATE,
      ]);
      expect(brotliDecompressSync(answer.body).toString("utf8"), route).to.equal(LOGIN);
      expect(answer.headers["content-security-policy"], route).to.equal(PREVIEW_HEADERS["Content-Security-Policy"]);
    }
    for (const route of ["/forgot-password", "/login/extra", "/LOGIN", "/payments"]) {
      const answer = await request(server, route);
      expect([answer.status, answer.body.toString("utf8")], route).to.deep.equal([200, INDEX]);
    }
  });

  it("answers / with its own page and no Link header: the page starts the Dashboard's modules itself, after its first paint", async () => {
    const answer = await request(server, "/", { headers: { "Accept-Encoding": "br" } });
    expect([answer.status, answer.headers["content-encoding"], answer.headers["cache-control"], answer.headers.link]).to.deep.equal([
      200,
      "br",
      REVALIDATE,
      undefined,
    ]);
    expect(brotliDecompressSync(answer.body).toString("utf8")).to.equal(DASHBOARD);
  });
});

describe("The API server without a built dashboard", () => {
  /** A logger whose lines the test can read. */
  function capturingLogger() {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    return { log: pino({ level: "info" }, sink), lines };
  }

  for (const [name, setting] of [
    ["a folder that does not exist", () => path.join(tmpdir(), "usdx-no-such-build")],
    ["a folder without an index.html", () => mkdtempSync(path.join(tmpdir(), "usdx-empty-build-"))],
  ] as const) {
    it(`starts on ${name}, says so in its log, and answers the API alone (JSON 404 elsewhere)`, async () => {
      const dir = setting();
      const { log, lines } = capturingLogger();
      const server = await startServer(testConfig({ DASHBOARD_DIST: dir }), log);
      try {
        await server.services.indexer.syncOnce();
        const health = await fetch(`${server.url}/api/health`);
        expect(health.status).to.equal(200);
        const page = await request(server, "/payments");
        expect(page.status).to.equal(404);
        expect(json(page)).to.deep.equal({ success: false, error: "No such endpoint: GET /payments" });
        expect(lines.find((l) => /No built dashboard there/.test(String(l.msg)))).to.include({ dir });
        expect(lines.find((l) => l.msg === "USDX API listening")).to.include({ dashboard: "off" });
      } finally {
        await server.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it("npm run start:production refuses to start without a build, and says to run npm run build first", async () => {
    const missing = path.join(tmpdir(), "usdx-no-such-build");
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099",
      DASHBOARD_DIST: missing,
      DASHBOARD_ORIGIN: "",
      SERVER_HOST: "",
    };
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ["--import", "tsx", "server/src/index.ts", "--dashboard"], // as package.json's start:production runs it
        { cwd: ROOT, env },
        (_error, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    expect(code).to.equal(1);
    expect(stderr).to.include("There is no built dashboard in").and.include("run npm run build first");
  });
});

describe("servingEnv: the dashboard's origin under npm run start:production", () => {
  it("defaults to the server's own origin, so SIWE and CORS name the origin the browser opened", () => {
    expect(servingEnv({}).DASHBOARD_ORIGIN).to.equal("http://127.0.0.1:3001,http://localhost:3001");
    expect(servingEnv({ SERVER_PORT: "8080" }).DASHBOARD_ORIGIN).to.equal("http://127.0.0.1:8080,http://localhost:8080");
    expect(servingEnv({ SERVER_HOST: "localhost", SERVER_PORT: "8080" }).DASHBOARD_ORIGIN).to.equal("http://localhost:8080");
  });

  it("keeps an explicit DASHBOARD_ORIGIN (a proxy's public origin)", () => {
    expect(servingEnv({ DASHBOARD_ORIGIN: "https://usdx.example.com", SERVER_HOST: "0.0.0.0" }).DASHBOARD_ORIGIN).to.equal(
      "https://usdx.example.com",
    );
  });

  it("refuses to guess the origin of a server that listens beyond loopback", () => {
    expect(() => servingEnv({ SERVER_HOST: "0.0.0.0" })).to.throw(/DASHBOARD_ORIGIN must name the origin browsers open the dashboard at/);
  });
});
