/**
 * Bundle bench (`npm run bench:bundle`): builds the dashboard and prints what a first visit
 * downloads (the entry script and everything it imports statically, gzipped) against the
 * 250 KB budget of issue 4, then every lazily loaded chunk (routes, ethers, the chart), then what
 * each route of router.tsx downloads on demand beyond the first visit and in all (issue 16: the
 * API viewer, swagger-ui, only on /docs). Last, with a browser against the product's stack, what
 * pages really download until the network is idle (the chunks a render asks for, which the static
 * walk cannot know): /login on a first visit against issue 32's 150 KB, and the signed-in
 * Dashboard with Admin Functions (at load, then connecting the admin's wallet) against its 300 KB.
 * It exits 1 when the first download is over budget or carries the viewer, when a route other
 * than /docs does, or when either page is over its budget. `--no-build` measures the build in frontend/dist as it is;
 * `--no-browser` skips the browser (no stack is started); `--list` lists every file the browser fetched.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import ts from "typescript";
import { formatTable } from "@common/textTable";
import { signedInDashboardDownloads, type PageDownload } from "./lib/pageDownloads";

const INITIAL_JS_BUDGET_BYTES = 250 * 1024;
/** Issue 32: JavaScript a signed-in admin downloads for the Dashboard with its chart and Admin Functions, gzipped. */
const DASHBOARD_JS_BUDGET_BYTES = 300 * 1024;
/** Issue 32: JavaScript a first visit to /login downloads, gzipped. */
const LOGIN_JS_BUDGET_BYTES = 150 * 1024;
const root = path.resolve(__dirname, "..");
const frontend = path.join(root, "frontend");
const dist = path.join(frontend, "dist");

/** The one route allowed to load the API viewer. */
const VIEWER_ROUTE = "/docs";
/** swagger-ui and the client it runs requests and reads OpenAPI 3.1 with, as the sourcemaps name them. */
const VIEWER_SOURCE = /node_modules\/(swagger-ui|swagger-client|@swagger-api)\//;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const gzipSize = (file: string) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;

/** Vite's build manifest (build.manifest): each chunk's file, static imports and CSS, keyed by source. */
type Manifest = Record<string, { file: string; imports?: string[]; dynamicImports?: string[]; css?: string[]; isEntry?: boolean }>;

/**
 * The routes of frontend/src/app/router.tsx whose page is lazy, with the page's module as the
 * manifest names it: `const X = lazy(() => import("..."))` (or `import("...").then(...)` for a
 * named export) and `{ path: "/x", element: page(<X />) }`, and the lazy layouts around it
 * (`{ element: page(<Frame />), children: [...] }`), which the route downloads too.
 */
function lazyRoutes(): { route: string; module: string | null; layouts: string[] }[] {
  const file = path.join(frontend, "src", "app", "router.tsx");
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const modules = new Map<string, string>();
  const routes: { route: string; page: string; layouts: string[] }[] = [];
  /** The specifier of `import("x")`, or of `import("x").then(...)`. */
  const imported = (body: ts.Node): string | null => {
    if (!ts.isCallExpression(body)) return null;
    if (ts.isPropertyAccessExpression(body.expression) && body.expression.name.text === "then") return imported(body.expression.expression);
    const specifier = body.arguments[0];
    return body.expression.kind === ts.SyntaxKind.ImportKeyword && specifier && ts.isStringLiteral(specifier) ? specifier.text : null;
  };
  /** `page(<X />)`'s X. */
  const pageOf = (element: ts.Expression | undefined): string | null => {
    const jsx = element && ts.isCallExpression(element) ? element.arguments[0] : undefined;
    return jsx && ts.isJsxSelfClosingElement(jsx) && ts.isIdentifier(jsx.tagName) ? jsx.tagName.text : null;
  };
  const visit = (node: ts.Node, layouts: string[]): void => {
    // const Docs = lazy(() => import("@/features/docs/pages/DocsPage"))
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isCallExpression(node.initializer)) {
      const call = node.initializer;
      const loader = call.arguments[0];
      const specifier =
        ts.isIdentifier(call.expression) && call.expression.text === "lazy" && loader && ts.isArrowFunction(loader)
          ? imported(loader.body)
          : null;
      if (specifier) modules.set(node.name.text, specifier);
    }
    // { path: "/docs", element: page(<Docs />) }, or a layout: { element: page(<Frame />), children: [...] }
    if (ts.isObjectLiteralExpression(node)) {
      const prop = (name: string) =>
        node.properties.find(
          (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name,
        )?.initializer;
      const route = prop("path");
      const page = pageOf(prop("element"));
      if (route && ts.isStringLiteral(route) && page) routes.push({ route: route.text, page, layouts });
      if (!route && page) return ts.forEachChild(node, (child) => visit(child, [...layouts, page]));
    }
    ts.forEachChild(node, (child) => visit(child, layouts));
  };
  visit(source, []);
  // Specifiers as the manifest keys them: relative to frontend/, with the file's extension.
  const manifestKey = (specifier: string) => {
    const base = specifier.startsWith("@/")
      ? path.join("src", specifier.slice(2))
      : path.join(path.dirname(path.relative(frontend, file)), specifier);
    const found = [".tsx", ".ts"].map((ext) => base + ext).find((candidate) => existsSync(path.join(frontend, candidate)));
    if (!found) throw new Error(`router.tsx: no module at ${specifier}`);
    return found.split(path.sep).join("/");
  };
  // A page imported statically (module null, such as /login) is part of the first download.
  return routes.map((r) => ({
    route: r.route,
    module: modules.has(r.page) ? manifestKey(modules.get(r.page)!) : null,
    layouts: r.layouts.filter((l) => modules.has(l)).map((l) => manifestKey(modules.get(l)!)),
  }));
}

/** A chunk and every chunk it imports statically (what the browser fetches before running it), with their CSS. */
function closure(manifest: Manifest, key: string): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const walk = (k: string) => {
    if (seen.has(k)) return;
    seen.add(k);
    const chunk = manifest[k];
    if (!chunk) throw new Error(`The build manifest has no chunk ${k}`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) walk(imported);
  };
  walk(key);
  return files;
}

/** Whether a built chunk holds the viewer's code, by the sources its sourcemap names. */
function holdsViewer(file: string): boolean {
  const map = path.join(dist, `${file}.map`);
  // Chunks the bundler writes itself (its runtime) have none; if sourcemaps were off, /docs would fail the check below.
  if (!existsSync(map)) return false;
  return (JSON.parse(readFileSync(map, "utf8")) as { sources: string[] }).sources.some((source) => VIEWER_SOURCE.test(source));
}

/** Prints each lazy route's download beyond the first visit; returns the problems found. */
function routeReport(initial: Set<string>): string[] {
  const manifest = JSON.parse(readFileSync(path.join(dist, ".vite", "manifest.json"), "utf8")) as Manifest;
  const problems: string[] = [];
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entry) throw new Error("The build manifest has no entry chunk.");
  const firstDownload = closure(manifest, entry);
  const viewerFirst = [...firstDownload].filter((f) => f.endsWith(".js") && holdsViewer(f));
  if (viewerFirst.length) problems.push(`The first download holds the API viewer (${viewerFirst.join(", ")}).`);

  const routes = lazyRoutes();
  // Every lazy page the entry can load must be one of the routes read from router.tsx, and back.
  const routeModules = new Set(routes.map((r) => r.module).filter((m) => m !== null));
  const lazyPages = (manifest[entry].dynamicImports ?? []).filter((k) => /\/pages\//.test(k));
  for (const page of lazyPages)
    if (!routeModules.has(page)) problems.push(`${page} is loaded lazily but no route of router.tsx was found for it.`);
  for (const { route, module } of routes)
    if (module && !manifest[module]) problems.push(`${route}: ${module} is not in the build manifest.`);

  const rows = routes
    .filter((r) => r.module === null || manifest[r.module])
    .map(({ route, module, layouts }) => {
      const chunks = new Set([...(module ? [module] : []), ...layouts].flatMap((m) => [...closure(manifest, m)]));
      const extra = [...chunks].filter((f) => !initial.has(f) && !firstDownload.has(f));
      const js = extra.filter((f) => f.endsWith(".js"));
      const viewer = js.some(holdsViewer);
      if (viewer !== (route === VIEWER_ROUTE)) {
        problems.push(
          viewer
            ? `${route} loads the API viewer: only ${VIEWER_ROUTE} may.`
            : `${VIEWER_ROUTE} does not load the API viewer: is the viewer, or this check, broken?`,
        );
      }
      const sum = (files: string[]) => files.reduce((total, f) => total + gzipSize(f), 0);
      const all = new Set([...initial, ...firstDownload, ...extra]);
      const total = sum([...all].filter((f) => f.endsWith(".js")));
      return { route, js: sum(js), total, css: sum(extra.filter((f) => f.endsWith(".css"))), chunks: js.length, viewer };
    });
  if (!rows.some((r) => r.route === VIEWER_ROUTE)) problems.push(`router.tsx has no lazy route ${VIEWER_ROUTE}.`);
  console.log(
    "\nWhat each route downloads beyond the first visit: its page's chunk (and its lazy layout's) and what they import statically",
  );
  console.log("(chunks a page loads later, such as the charts, are not counted):\n");
  console.log(
    formatTable(
      ["route", "JS on demand (gzip)", "chunks", "JS in all, first visit included", "CSS on demand (gzip)", "API viewer (swagger-ui)"],
      rows.map((r) => [r.route, kb(r.js), String(r.chunks), kb(r.total), r.css ? kb(r.css) : "-", r.viewer ? "yes" : "no"]),
    ),
  );
  return problems;
}

/** Prints what /login and the signed-in Dashboard download, measured in a browser; returns the problems found. */
async function browserReport(): Promise<string[]> {
  console.log(
    "\nWhat the pages download, measured in Chromium against the product's stack until the network is idle (signed in with the development wallet):\n",
  );
  const [login, desktop, phone, wallet] = await signedInDashboardDownloads(dist);
  const jsOf = (files: string[]) => files.filter((f) => f.endsWith(".js"));
  const bytesOf = (files: string[]) => jsOf(files).reduce((total, f) => total + gzipSize(f), 0);
  const largest = (files: string[]) =>
    jsOf(files)
      .map((f) => ({ f, size: gzipSize(f) }))
      .sort((a, b) => b.size - a.size)
      .slice(0, 4)
      .map(({ f, size }) => `${path.basename(f).replace(/-[\w-]{8}\.js$/, "")} ${kb(size)}`)
      .join(", ");
  // The whole figure: the Dashboard with its cards and chart, then Admin Functions once the admin's wallet connects.
  const whole = { what: "the Dashboard with Admin Functions, in all", files: [...new Set([...desktop.files, ...wallet.files])] };
  const rows: { download: PageDownload; budget: number | null }[] = [
    { download: login, budget: LOGIN_JS_BUDGET_BYTES },
    { download: desktop, budget: null },
    { download: phone, budget: null },
    { download: wallet, budget: null },
    { download: whole, budget: DASHBOARD_JS_BUDGET_BYTES },
  ];
  const problems: string[] = [];
  for (const { download, budget } of rows) {
    const bytes = bytesOf(download.files);
    if (budget !== null && bytes > budget)
      problems.push(`${download.what} downloads ${kb(bytes)} of JavaScript, over the ${kb(budget)} budget.`);
  }
  console.log(
    formatTable(
      ["page", "JS (gzip)", "chunks", "budget", "ratio", "largest chunks"],
      rows.map(({ download, budget }) => {
        const bytes = bytesOf(download.files);
        return [
          download.what,
          kb(bytes),
          String(jsOf(download.files).length),
          budget === null ? "-" : `${kb(budget)} ${bytes <= budget ? "within" : "OVER"}`,
          budget === null ? "-" : (bytes / budget).toFixed(2),
          largest(download.files),
        ];
      }),
    ),
  );
  if (process.argv.includes("--list")) {
    for (const { download } of rows.slice(0, 4)) {
      const js = jsOf(download.files).map((f) => ({ f, size: gzipSize(f) }));
      console.log(
        `\n${download.what}:\n${js
          .sort((a, b) => b.size - a.size)
          .map(({ f, size }) => `  ${kb(size).padStart(9)}  ${f}`)
          .join("\n")}`,
      );
    }
  }
  return problems;
}

async function main(): Promise<void> {
  if (!process.argv.includes("--no-build")) {
    execFileSync(path.join(root, "node_modules", ".bin", "vite"), ["build", "--config", "frontend/vite.config.mts", "--logLevel", "warn"], {
      cwd: root,
      stdio: "inherit",
    });
  }
  const html = readFileSync(path.join(dist, "index.html"), "utf8");
  // What index.html loads before the first render: the entry module and its modulepreloads.
  const initial = new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]));
  const assets = readdirSync(path.join(dist, "assets")).filter((f) => f.endsWith(".js") || f.endsWith(".css"));
  const rows = assets.map((file) => {
    const bytes = readFileSync(path.join(dist, "assets", file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, initial: initial.has(`assets/${file}`) };
  });
  rows.sort((a, b) => Number(b.initial) - Number(a.initial) || b.gzip - a.gzip);
  console.log(
    formatTable(
      ["file", "loaded", "raw", "gzip"],
      rows.map((r) => [r.file, r.initial ? "first visit" : "on demand", kb(r.raw), kb(r.gzip)]),
    ),
  );
  const initialJs = rows.filter((r) => r.initial && r.file.endsWith(".js")).reduce((sum, r) => sum + r.gzip, 0);
  const css = rows.filter((r) => r.file.endsWith(".css") && r.initial).reduce((sum, r) => sum + r.gzip, 0);
  const verdict = initialJs <= INITIAL_JS_BUDGET_BYTES ? "within" : "OVER";
  console.log(
    `\nInitial JavaScript: ${kb(initialJs)} gzipped, ${(initialJs / INITIAL_JS_BUDGET_BYTES).toFixed(2)} of the ${kb(INITIAL_JS_BUDGET_BYTES)} budget (${verdict}).`,
  );
  console.log(`CSS: ${kb(css)} gzipped. Chunks loaded on demand: ${rows.filter((r) => !r.initial && r.file.endsWith(".js")).length}.`);
  if (initialJs > INITIAL_JS_BUDGET_BYTES) process.exitCode = 1;

  const problems = routeReport(initial);
  if (!process.argv.includes("--no-browser")) problems.push(...(await browserReport()));
  for (const problem of problems) console.log(`FAIL: ${problem}`);
  if (problems.length) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
