import path from "node:path";
import { runnerImport, type Plugin, type Rollup } from "vite";
import { PRERENDERED_PAGES } from "../../common/prerenderedPages";
import { FIREBASE_DB, FIREBASE_STORE, KEPT_USER_WAIT_MS, STORED_USER_KEY_PREFIX } from "../src/lib/auth/storedUser";
import { LANDING_CHUNKS } from "./landingChunks";
const EMPTY_ROOT = '<div id="root"></div>';
/** Marks the screen drawn for signed-in visits: hidden until the boot script has found a kept user. */
const SIGNED_IN_ONLY = "data-signed-in-only";
/**
 * How many modulepreload links BOOT adds in one task: each starts a request, about a millisecond of
 * the main thread here and four times that on Lighthouse's phone; the 27 of "/" in one task were
 * its longest task after the first paint (57 ms here, about 180 ms of blocking on the phone).
 */
const PRELOADS_PER_TASK = 3;

interface Screens {
  renderLoginScreen(): string;
  renderDashboardScreen(): string;
}

/**
 * Writes each route's own page (common/prerenderedPages.ts) beside index.html: the same page with
 * the route's screen already in its root (src/prerender.tsx, run through Vite at build time) and its
 * stylesheet written in, so a first visit paints the screen as soon as the HTML arrives, not after
 * the scripts and GET /api/config. The app's scripts start once that paint is done (BOOT). The
 * screen is `inert` until the app renders it again (main.tsx replaces the root's content): a person
 * cannot type into a field the app would then empty, or press a button that does nothing yet.
 *   - /login, where every signed-out visit lands: the Login screen.
 *   - "/", where every signed-in visit lands: the page frame and the Dashboard as their first
 *     render draws them, with no user's data and nothing from the server's configuration. Drawn
 *     only where Firebase kept a signed-in user (BOOT looks before the first paint): a signed-out
 *     visitor, whom the app sends to /login, never sees it.
 * Emitted in generateBundle, so the compression plugin gives the pages their .br and .gz copies.
 */
export function prerenderPages(root: string, alias: Record<string, string>): Plugin {
  return {
    name: "usdx:prerender-pages",
    apply: "build",
    enforce: "post",
    async generateBundle(_options, bundle) {
      const page = bundle["index.html"];
      if (page?.type !== "asset") return;
      const html = String(page.source);
      const fail = (message: string): never => this.error(message);
      if (!html.includes(EMPTY_ROOT)) fail(`index.html has no ${EMPTY_ROOT} to render the screens into.`);
      const { module } = await runnerImport<Screens>(path.join(root, "src", "prerender.tsx"), {
        configFile: false,
        root,
        // js-sha3 through Node's require: see ./jsSha3.ts.
        resolve: { alias: { ...alias, "js-sha3": path.join(root, "build", "jsSha3.ts") } },
        logLevel: "error",
      });
      const boot = this.getFileName(this.emitFile({ type: "asset", name: "boot.js", source: BOOT }));
      const write = (route: keyof typeof PRERENDERED_PAGES, screen: string, preloads: string[]) => {
        const drawn = html.replace(EMPTY_ROOT, `<div id="root">${screen}</div>`);
        this.emitFile({
          type: "asset",
          fileName: PRERENDERED_PAGES[route],
          source: scriptsAfterPaint(inlineStylesheets(drawn, bundle, fail), boot, preloads, fail),
        });
      };
      write("/login", markScreen(module.renderLoginScreen(), "inert", fail), []);
      write(
        "/",
        markScreen(module.renderDashboardScreen(), `inert ${SIGNED_IN_ONLY} style="display:none"`, fail),
        landingModules(root, html, bundle, fail),
      );
    },
  };
}

/** The screen with `attributes` on its outer element (which must have no style of its own). */
function markScreen(screen: string, attributes: string, fail: (message: string) => never): string {
  const outer = /^<([a-z]+) ([^>]*)>/.exec(screen);
  if (!outer || /\b(style|inert)=/.test(outer[2]))
    fail(`A prerendered screen starts with ${screen.slice(0, 60)}: expected an element to mark ${attributes}.`);
  return screen.replace(/^<([a-z]+) /, `<$1 ${attributes} `);
}

/**
 * The chunks of the signed-in landing page (landingChunks.ts) and those they import: "/"'s page
 * preloads them with the app's scripts, as the router loads them at once there (prefetchLandingPage).
 */
function landingModules(root: string, html: string, bundle: Rollup.OutputBundle, fail: (message: string) => never): string[] {
  const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === "chunk");
  const pageSheets = new Set([...html.matchAll(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"/g)].map((m) => m[1]));
  const files = new Set<string>();
  const add = (file: string) => {
    const chunk = bundle[file];
    if (files.has(file) || chunk?.type !== "chunk") return;
    // The page holds its stylesheets written in; a chunk with another would be drawn unstyled.
    const other = [...(chunk.viteMetadata?.importedCss ?? [])].find((sheet) => !pageSheets.has(sheet));
    if (other) fail(`${file} needs ${other}, a stylesheet "/"'s page does not have.`);
    files.add(file);
    chunk.imports.forEach(add);
  };
  for (const [, source] of LANDING_CHUNKS) {
    const chunk = chunks.find((c) => c.moduleIds.includes(path.resolve(root, source)));
    if (!chunk) fail(`The build has no chunk holding ${source}.`);
    add(chunk!.fileName);
  }
  return [...files].map((file) => `/${file}`);
}

/**
 * The page's stylesheets, written into it: the screen then paints with the HTML alone, with no
 * request for the stylesheet sharing a slow phone connection with the scripts (about 9 KB
 * compressed). The Content-Security-Policy allows inline styles already (common/securityHeaders.ts).
 */
function inlineStylesheets(html: string, bundle: Rollup.OutputBundle, fail: (message: string) => never): string {
  return html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (_tag, file: string) => {
    const sheet = bundle[file];
    if (sheet?.type !== "asset") fail(`index.html links ${file}, which the build does not have.`);
    const css = String(sheet.source);
    if (/<\/style/i.test(css)) fail(`${file} holds "</style", which would end the inline style early.`);
    return `<style>${css}</style>`;
  });
}

/**
 * Starts the app once the screen drawn in the HTML has painted (two frames, or half a second in a
 * tab that draws no frames). In the page, the module tags would start the scripts before the first
 * paint, and a browser that has them cached (a return visit) would run them before painting: the
 * screen would wait for an app it does not need. The modules are preloaded, as the page's tags
 * would, with the page's others (data-preloads), a few per task (PRELOADS_PER_TASK), then run one
 * per task, the entry last: evaluating them all in one long task would hold off a tap (each still
 * runs after the modules it imports). If the app cannot start, the inert screen gives way to a
 * sentence saying so.
 * A screen for signed-in visits (marked data-signed-in-only, hidden) is shown first if Firebase kept
 * a signed-in user in this browser (its key in localStorage or in its IndexedDB store, as
 * src/lib/auth/storedUser.ts reads it; never creating the database); else it stays hidden and the
 * app starts at once, and sends the visitor to /login as before. Plain JavaScript: it runs as written.
 */
const BOOT = `(() => {
  const script = document.currentScript;
  const [entry, ...modules] = script.dataset.modules.split(" ");
  const preloads = (script.dataset.preloads || "").split(" ").filter(Boolean);
  const failed = (error) => {
    const title = document.createElement("h1");
    title.textContent = "USDX Dashboard";
    const sentence = document.createElement("p");
    sentence.textContent = "The dashboard could not start (" + error.message + "). Reload the page.";
    const box = document.createElement("div");
    box.style.cssText = "padding: 32px; font-family: system-ui";
    box.append(title, sentence);
    document.getElementById("root").replaceChildren(box);
  };
  const nextTask = () => new Promise((next) => setTimeout(next));
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    const hrefs = [...modules, entry, ...preloads];
    for (let i = 0; i < hrefs.length; i += ${PRELOADS_PER_TASK}) {
      for (const href of hrefs.slice(i, i + ${PRELOADS_PER_TASK})) {
        const link = document.createElement("link");
        link.rel = "modulepreload";
        link.href = href;
        document.head.append(link);
      }
      await nextTask();
    }
    try {
      for (const href of modules) {
        await import(href);
        await nextTask();
      }
      await import(entry);
    } catch (error) {
      failed(error);
    }
  };
  const afterPaint = () => {
    requestAnimationFrame(() => requestAnimationFrame(start));
    setTimeout(start, 500);
  };
  const kept = (key) => String(key).startsWith(${JSON.stringify(STORED_USER_KEY_PREFIX)});
  const keptUser = async () => {
    if (Object.keys(localStorage).some(kept)) return true;
    if (typeof indexedDB === "undefined" || typeof indexedDB.databases !== "function") return false;
    if (!(await indexedDB.databases()).some((db) => db.name === ${JSON.stringify(FIREBASE_DB)})) return false;
    return new Promise((resolve) => {
      const request = indexedDB.open(${JSON.stringify(FIREBASE_DB)});
      request.onupgradeneeded = () => request.transaction.abort();
      request.onerror = request.onblocked = () => resolve(false);
      request.onsuccess = () => {
        const db = request.result;
        const done = (found) => {
          db.close();
          resolve(found);
        };
        try {
          const keys = db.transaction(${JSON.stringify(FIREBASE_STORE)}, "readonly").objectStore(${JSON.stringify(FIREBASE_STORE)}).getAllKeys();
          keys.onsuccess = () => done(keys.result.some(kept));
          keys.onerror = () => done(false);
        } catch {
          done(false);
        }
      };
    });
  };
  const signedInOnly = document.querySelector("[${SIGNED_IN_ONLY}]");
  if (!signedInOnly) return afterPaint();
  // Storage that does not answer within the app's own wait for it (KEPT_USER_WAIT_MS) counts as nobody.
  const gaveUp = new Promise((resolve) => setTimeout(() => resolve(false), ${KEPT_USER_WAIT_MS}));
  Promise.race([keptUser().catch(() => false), gaveUp]).then((signedIn) => {
    if (!signedIn) return start();
    signedInOnly.style.display = "";
    afterPaint();
  });
})();
`;

/**
 * The page's module tags (the entry script and its modulepreloads), replaced by the boot script
 * (BOOT), which starts the same modules once the page has painted, and preloads `preloads` (those
 * the page's tags do not name already) with them.
 */
function scriptsAfterPaint(html: string, boot: string, preloads: string[], fail: (message: string) => never): string {
  const modules: string[] = [];
  const rest = html
    .replace(/\s*<script type="module"[^>]*src="([^"]+)"[^>]*><\/script>/g, (_tag, src: string) => {
      modules.unshift(src);
      return "";
    })
    .replace(/\s*<link rel="modulepreload"[^>]*href="([^"]+)"[^>]*>/g, (_tag, href: string) => {
      modules.push(href);
      return "";
    });
  if (!modules[0]?.endsWith(".js") || rest.includes('type="module"'))
    fail("index.html's module tags are not the entry script and modulepreloads this build expects.");
  const more = preloads.filter((href) => !modules.includes(href));
  const preloadAttribute = more.length > 0 ? ` data-preloads="${more.join(" ")}"` : "";
  return rest.replace(
    "</head>",
    `  <script defer src="/${boot}" data-modules="${modules.join(" ")}"${preloadAttribute}></script>\n  </head>`,
  );
}
