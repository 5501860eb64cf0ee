/// <reference types="vitest/config" />
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { compression } from "vite-plugin-compression2";
import { landingChunks } from "./build/landingChunks";
import { prerenderPages } from "./build/prerenderPages";
import { DEV_HEADERS, PREVIEW_HEADERS } from "../common/securityHeaders";
import { testProjects } from "./vitest.projects";

const here = path.dirname(fileURLToPath(import.meta.url));
const resolvePackage = createRequire(import.meta.url).resolve;

// The API server the dev server forwards /api to (npm start runs it on 3001).
const API_URL = process.env.VITE_API_URL || `http://127.0.0.1:${process.env.SERVER_PORT || 3001}`;
// xfwd: the API sees who the browser is (X-Forwarded-For), so its rate limits are per client
// rather than one bucket for everyone behind this proxy (the server trusts loopback proxies only).
const API_PROXY = { "/api": { target: API_URL, changeOrigin: true, xfwd: true } };

/** The commit the dashboard is built from (USDX_COMMIT, else git's), for /monitoring; null outside a checkout. */
function sourceCommit(): string | null {
  if (process.env.USDX_COMMIT) return process.env.USDX_COMMIT;
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: here,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return null;
  }
}

/**
 * The contracts' generated factories carry each contract's deployment bytecode (the USDX factory
 * alone, 6 KB gzipped). The dashboard only connects to deployed contracts, never deploys, so the
 * build leaves the bytecode out; the ABI, the one thing it reads from a factory, is untouched.
 */
function dropFactoryBytecode(): Plugin {
  return {
    name: "usdx:drop-factory-bytecode",
    apply: "build",
    transform(code, id) {
      if (!/typechain-types[\\/]factories[\\/].*__factory\.ts$/.test(id)) return null;
      // The same lines, so the sourcemap stays right.
      return { code: code.replace(/(const _bytecode =\s*)"0x[0-9a-fA-F]*"/, '$1"0x"'), map: null };
    },
  };
}

// The same aliases as frontend/tsconfig.json's paths: the dashboard's own tree, the code it shares
// with the server, and the contracts' generated bindings.
const ALIAS = {
  "@common": path.resolve(here, "../common"),
  "@bindings": path.resolve(here, "../typechain-types"),
  "@": path.resolve(here, "src"),
  // ethers' ENS name normalisation, which the dashboard never reaches: see the stand-in's comment.
  "@adraffy/ens-normalize": path.resolve(here, "src/lib/chain/ensNormalize.ts"),
};

export default defineConfig({
  root: here,
  // What /monitoring shows as the dashboard's build: fixed at build time.
  define: {
    __DASHBOARD_BUILD__: JSON.stringify({ builtAt: new Date().toISOString(), commit: sourceCommit() }),
    // Node's name for the global object, which the Buffer polyfill under swagger-ui's
    // dependencies (safe-buffer, for /docs) reads when it loads; browsers only have globalThis.
    global: "globalThis",
  },
  plugins: [
    react(),
    tailwindcss(),
    dropFactoryBytecode(),
    // /login's and "/"'s pages with their screens already drawn in them (build/prerenderPages.ts).
    prerenderPages(here, ALIAS),
    // Each file of the build beside its brotli and gzip copies (x.js.br, x.js.gz), made once at build
    // time at the highest levels: the server sends the one the browser accepts (server/src/dashboard.ts)
    // and compresses nothing per request. Source maps stay as they are: only a developer opens them.
    compression({ algorithms: ["brotliCompress", "gzip"], exclude: [/\.map$/, /\.(png|jpe?g|webp|woff2?)$/], threshold: 1024 }),
  ],
  resolve: {
    alias: ALIAS,
    // One React: swagger-ui (the /docs viewer) has React 18 installed beside it for two of its
    // dependencies' peer ranges, and elements from a second React break under the app's React 19.
    dedupe: ["react", "react-dom"],
  },
  server: {
    host: "127.0.0.1",
    port: Number(process.env.DASHBOARD_PORT || 5173),
    strictPort: true,
    proxy: API_PROXY,
    // No CSP in development (React Refresh needs an inline script): see securityHeaders.ts.
    headers: { ...DEV_HEADERS },
    // common/ and the bindings live beside frontend/.
    fs: { allow: [path.resolve(here, "..")] },
  },
  preview: {
    host: "127.0.0.1",
    port: Number(process.env.DASHBOARD_PORT || 5173),
    strictPort: true,
    proxy: API_PROXY,
    // The built dashboard as it ships: Content-Security-Policy and the other security headers.
    headers: { ...PREVIEW_HEADERS },
  },
  // The manifest (dist/.vite/manifest.json) tells bench/bundle.ts what each route loads.
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    // React DOM in a chunk of its own: /login's page runs each module in a task of its own
    // (build/prerenderPages.ts), and React DOM inside the entry made one long task of the two.
    // Then the signed-in landing page's code in two chunks (see landingChunk).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: "react-dom", test: /node_modules[\\/]react-dom[\\/]/, priority: 2 },
            // Each module's imports are the entry's or in the same closure (landingChunk), so the
            // default of pulling them in too would only move the entry's modules into these chunks.
            { name: landingChunks(here), priority: 1, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  test: {
    environment: "happy-dom",
    setupFiles: ["./src/test/setup.ts"],
    css: false,
    // The test DOM renders the long tables (130 contacts, 1,200 recipients) slowly on a busy two-core CI
    // machine; 5 s (vitest's default) failed there while the same test takes about 1 s alone.
    testTimeout: 15_000,
    // swagger-ui's browser build, as the dashboard bundles it: Vitest resolves packages for Node
    // under the test DOM too, and swagger-ui's Node entry is a bundle with a React 18 of its own inside.
    alias: [
      {
        find: /^swagger-ui$/,
        replacement: path.join(path.dirname(resolvePackage("swagger-ui/dist/swagger-ui.css")), "swagger-ui-es-bundle-core.js"),
      },
    ],
    // Through Vite's resolver (resolve.dedupe), or Node would give swagger-ui and the packages
    // installed beside it the React 18 there.
    server: { deps: { inline: [/[\\/]swagger-ui[\\/]/] } },
    // The test files (src/**/*.test.{ts,tsx}) sharing one worker and its DOM: see vitest.projects.ts.
    projects: testProjects(here),
  },
});
