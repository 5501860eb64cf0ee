import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, preview, type PluginOption, type PreviewServer } from "vite";
import viteConfig from "../vite.config.mjs";
import { BASE_HEADERS, DEV_HEADERS, FIREBASE_AUTH_ORIGINS, PREVIEW_HEADERS } from "@common/securityHeaders";

const CONFIG_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "vite.config.mts");

/** A Content-Security-Policy header as directive name → sources. */
function parseCsp(header: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of header.split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (!name) continue;
    // A browser uses the first of two same-named directives and ignores the second: never write one twice.
    expect(directives.has(name), `${name} appears twice`).toBe(false);
    directives.set(name, sources);
  }
  return directives;
}

const csp = () => parseCsp(PREVIEW_HEADERS["Content-Security-Policy"]);

/** Whether a plugin of vite.config.mts is vite-plugin-compression2's, by the name it gives itself. */
const isCompression = (plugin: PluginOption) =>
  typeof plugin === "object" && plugin !== null && "name" in plugin && plugin.name === "vite-plugin-compression";

describe("the served dashboard's Content-Security-Policy", () => {
  it("runs only the dashboard's own scripts: no inline script, no eval, no other host", () => {
    expect(csp().get("script-src")).toEqual(["'self'"]);
    expect(csp().get("default-src")).toEqual(["'self'"]);
    for (const [name, sources] of csp()) {
      expect(sources, name).not.toContain("'unsafe-eval'");
      expect(sources, name).not.toContain("*");
      expect(sources, name).not.toContain("http:");
      // Radix and React 19 write <style> elements; nothing else may be inline.
      if (name !== "style-src") expect(sources, name).not.toContain("'unsafe-inline'");
    }
  });

  it("allows no plugins, no <base>, no frames in or out, and forms only to itself", () => {
    expect(csp().get("object-src")).toEqual(["'none'"]);
    expect(csp().get("base-uri")).toEqual(["'none'"]);
    expect(csp().get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp().get("frame-src")).toEqual(["'none'"]);
    expect(csp().get("form-action")).toEqual(["'self'"]);
  });

  it("lets the dashboard reach the API, Firebase Auth, the local node and emulator, and an HTTPS RPC", () => {
    const connect = csp().get("connect-src")!;
    expect(connect).toContain("'self'");
    for (const origin of FIREBASE_AUTH_ORIGINS) expect(connect).toContain(origin);
    expect(connect).toEqual(expect.arrayContaining(["http://127.0.0.1:*", "http://localhost:*", "https:"]));
    expect(csp().get("img-src")).toEqual(["'self'", "data:"]);
    expect(csp().get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it("comes with the other security headers; the development server gets those without the CSP", () => {
    expect(PREVIEW_HEADERS).toMatchObject({
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "DENY",
      "Referrer-Policy": "strict-origin-when-cross-origin",
      "Cross-Origin-Opener-Policy": "same-origin",
    });
    expect(PREVIEW_HEADERS["Permissions-Policy"]).toMatch(/(^|, )camera=\(\)/);
    expect(PREVIEW_HEADERS["Permissions-Policy"]).toMatch(/(^|, )microphone=\(\)/);
    expect(PREVIEW_HEADERS["Permissions-Policy"]).toMatch(/(^|, )geolocation=\(\)/);
    expect(DEV_HEADERS).toEqual(BASE_HEADERS);
    expect(DEV_HEADERS).not.toHaveProperty("Content-Security-Policy");
  });

  it("is what vite.config.mts serves, with the client's address forwarded to the API", () => {
    expect(viteConfig.preview?.headers).toEqual(PREVIEW_HEADERS);
    expect(viteConfig.server?.headers).toEqual(DEV_HEADERS);
    for (const proxy of [viteConfig.preview?.proxy, viteConfig.server?.proxy]) {
      expect(proxy?.["/api"]).toMatchObject({ xfwd: true });
    }
  });
});

describe("the production build under vite preview", () => {
  let outDir: string;
  let server: PreviewServer | null = null;

  beforeAll(async () => {
    outDir = mkdtempSync(path.join(tmpdir(), "usdx-csp-build-"));
    // vite.config.mts's build without the brotli and gzip copies of each file, which took three
    // quarters of the build's time: vite preview never serves them, and what is tested here is the
    // page and the headers that vite preview sends.
    const plugins = [viteConfig.plugins].flat(Infinity as 1).filter((plugin) => !isCompression(plugin));
    await build({
      ...viteConfig,
      configFile: false,
      plugins,
      logLevel: "silent",
      build: { ...viteConfig.build, outDir, emptyOutDir: true, sourcemap: false },
    });
    server = await preview({ configFile: CONFIG_FILE, logLevel: "silent", build: { outDir }, preview: { port: 0, strictPort: false } });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  it("has no inline script or inline event handler that script-src 'self' would block", () => {
    const html = readFileSync(path.join(outDir, "index.html"), "utf8");
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [tag, attributes, body] of scripts) {
      expect(attributes, tag).toMatch(/\bsrc="\/assets\//);
      expect(body.trim(), tag).toBe("");
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/javascript:/i);
  });

  it("serves the page, a deep link and an asset with every header", async () => {
    const { port } = server!.httpServer.address() as AddressInfo;
    const asset = readdirSync(path.join(outDir, "assets")).find((f) => f.endsWith(".js"))!;
    for (const route of ["/", "/contacts", `/assets/${asset}`]) {
      const res = await fetch(`http://127.0.0.1:${port}${route}`);
      expect(res.status, route).toBe(200);
      for (const [name, value] of Object.entries(PREVIEW_HEADERS)) expect(res.headers.get(name), `${route} ${name}`).toBe(value);
    }
  });
});
