import path from "node:path";
import { runnerImport, type AliasOptions, type Plugin, type Rollup } from "vite";
import { PRERENDERED_PAGES } from "../../common/prerenderedPages";
const EMPTY_ROOT = '<div id="root"></div>';

/**
 * Writes /login's own page (common/prerenderedPages.ts) beside index.html: the same page with the
 * Login screen already in its root (src/prerender.tsx, run through Vite at build time) and its
 * stylesheet written in, so a first visit to /login, where every signed-out visit lands, paints the
 * screen as soon as the HTML arrives, not after the scripts and GET /api/config. The app's scripts
 * start once that paint is done (BOOT). The screen is `inert` until the app renders it again
 * (main.tsx replaces the root's content): a person cannot type into a field the app would then empty.
 * Emitted in generateBundle, so the compression plugin gives the page its .br and .gz copies.
 */
export function prerenderLogin(root: string, alias: AliasOptions): Plugin {
  return {
    name: "usdx:prerender-login",
    apply: "build",
    enforce: "post",
    async generateBundle(_options, bundle) {
      const page = bundle["index.html"];
      if (page?.type !== "asset") return;
      const html = String(page.source);
      if (!html.includes(EMPTY_ROOT)) this.error(`index.html has no ${EMPTY_ROOT} to render the Login screen into.`);
      const { module } = await runnerImport<{ renderLoginScreen(): string }>(path.join(root, "src", "prerender.tsx"), {
        configFile: false,
        root,
        resolve: { alias },
        logLevel: "error",
      });
      const screen = module.renderLoginScreen();
      if (!screen.startsWith("<main ")) this.error("The Login screen no longer starts with its <main>: mark its new outer element inert.");
      const boot = this.getFileName(this.emitFile({ type: "asset", name: "boot.js", source: BOOT }));
      const drawn = html.replace(EMPTY_ROOT, `<div id="root">${screen.replace(/^<main /, "<main inert ")}</div>`);
      this.emitFile({
        type: "asset",
        fileName: PRERENDERED_PAGES["/login"],
        source: scriptsAfterPaint(
          inlineStylesheets(drawn, bundle, (m) => this.error(m)),
          boot,
          (m) => this.error(m),
        ),
      });
    },
  };
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
 * screen would wait for an app it does not need. The modules are preloaded together, as the page's
 * tags would, then run one per task, the entry last: evaluating them all in one long task would hold
 * off a tap (each still runs after the modules it imports). If the app cannot start, the inert
 * screen gives way to a sentence saying so. Plain JavaScript: it runs as written.
 */
const BOOT = `(() => {
  const [entry, ...modules] = document.currentScript.dataset.modules.split(" ");
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
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    for (const href of modules) {
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      document.head.append(link);
    }
    try {
      for (const href of modules) {
        await import(href);
        await new Promise((next) => setTimeout(next));
      }
      await import(entry);
    } catch (error) {
      failed(error);
    }
  };
  requestAnimationFrame(() => requestAnimationFrame(start));
  setTimeout(start, 500);
})();
`;

/**
 * The page's module tags (the entry script and its modulepreloads), replaced by the boot script
 * (BOOT), which starts the same modules once the page has painted.
 */
function scriptsAfterPaint(html: string, boot: string, fail: (message: string) => never): string {
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
  return rest.replace("</head>", `  <script defer src="/${boot}" data-modules="${modules.join(" ")}"></script>\n  </head>`);
}
