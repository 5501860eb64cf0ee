import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";

/**
 * A tiny fake dashboard build in a temp folder, standing in for Vite's (an index.html and hashed
 * assets, some beside their brotli and gzip copies, and Vite's manifest), with a secret file beside
 * it that no path may reach. The server serves it as `npm run start:production` serves a real one.
 */
export const SECRET = "the-file-beside-the-build";
export const INDEX = `<!doctype html><html><head><script type="module" src="/assets/index-Bx3k9Q.js"></script></head><body><div id="root"></div></body></html>`;
// Over compression's 1 KB threshold, and compressible.
export const SCRIPT = `console.log(${JSON.stringify("usdx ".repeat(600))});\n`;

export interface DashboardBuild {
  /** The temp folder: `dist` and the secret file beside it. */
  dir: string;
  /** The build: DASHBOARD_DIST. */
  dist: string;
  remove(): void;
}

export function dashboardBuild(): DashboardBuild {
  const dir = mkdtempSync(path.join(tmpdir(), "usdx-dashboard-test-"));
  const dist = path.join(dir, "dist");
  mkdirSync(path.join(dist, "assets"), { recursive: true });
  writeFileSync(path.join(dir, "secret.txt"), SECRET);
  writeFileSync(path.join(dist, ".env"), SECRET);
  writeFileSync(path.join(dist, "index.html"), INDEX);
  writeFileSync(path.join(dist, "robots.txt"), "User-agent: *\n");
  writeFileSync(path.join(dist, "assets", "index-Bx3k9Q.js"), SCRIPT);
  writeFileSync(path.join(dist, "assets", "index-Dq81Za.css"), "body{margin:0}\n");
  // As the build leaves them (vite-plugin-compression2): a script and the page beside their copies.
  writeFileSync(path.join(dist, "assets", "app-Kq2PRE.js"), SCRIPT);
  for (const file of [path.join(dist, "assets", "app-Kq2PRE.js"), path.join(dist, "index.html")]) {
    writeFileSync(`${file}.br`, brotliCompressSync(readFileSync(file)));
    writeFileSync(`${file}.gz`, gzipSync(readFileSync(file), { level: 9 }));
  }
  // Vite's manifest: the page preloads _shared; the Dashboard's route chunks import it and _cards.
  mkdirSync(path.join(dist, ".vite"));
  writeFileSync(
    path.join(dist, ".vite", "manifest.json"),
    JSON.stringify({
      "index.html": { file: "assets/index-Bx3k9Q.js", isEntry: true, imports: ["_shared-A1.js"] },
      "_shared-A1.js": { file: "assets/shared-A1.js" },
      "_cards-B2.js": { file: "assets/cards-B2.js", css: ["assets/cards-B2.css"] },
      "src/app/layout/Frame.tsx": { file: "assets/Frame-C3.js", imports: ["_shared-A1.js"] },
      "src/app/pages/DashboardRoute.tsx": { file: "assets/DashboardRoute-D4.js", imports: ["_shared-A1.js", "_cards-B2.js"] },
    }),
  );
  return { dir, dist, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The Link header `/` carries for this build's manifest (ROUTE_MODULES less what index.html preloads). */
export const ROOT_PRELOADS =
  "</assets/Frame-C3.js>; rel=modulepreload, </assets/DashboardRoute-D4.js>; rel=modulepreload, </assets/cards-B2.js>; rel=modulepreload, </assets/cards-B2.css>; rel=preload; as=style";
