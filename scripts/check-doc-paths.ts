/**
 * `npx ts-node --transpile-only scripts/check-doc-paths.ts`: every repo path that docs/ARCHITECTURE.md
 * and docs/architecture/*.md name must exist, so the map of the code cannot quietly drift from the
 * code when a file moves. Prints each missing path with its file:line and exits 1; else prints how
 * many it checked and exits 0.
 *
 * What counts as a path:
 * - an inline code span of one word that has a slash or ends in a known extension
 *   (`server/src/app.ts`, `common/api/`), read from the repo's root; a span that starts with "/" is
 *   a URL path or a machine path (`/api/config`), not the repo's, and a span with spaces is a
 *   command or an expression, so neither is checked;
 * - a markdown link's target, read from the linking file's folder as markdown does; a link into a
 *   markdown file with an anchor must name one of that file's headings.
 * `<name>` and `*` match any one path segment (`deployments/<network>.json`), `**` any depth; a path
 * ending in "/" must be a folder. A path git ignores is made by a build (`typechain-types/`,
 * `frontend/dist/`) and need not exist. Fenced blocks are pictures that abbreviate: not checked.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..");
const DOCS = ["docs/ARCHITECTURE.md", ...markdownIn("docs/architecture")];
const EXTENSIONS = new Set(["ts", "tsx", "mts", "js", "mjs", "cjs", "json", "md", "sol", "yml", "yaml", "css", "html", "sql", "sh"]);

interface Reference {
  file: string;
  line: number;
  text: string;
}

function markdownIn(folder: string): string[] {
  const dir = path.join(ROOT, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `${folder}/${name}`);
}

/** A code span worth checking: one word, relative, with a slash or a known extension. */
function isRepoPath(span: string): boolean {
  if (!/^[\w.@<>*\-/]+$/.test(span) || span.startsWith("/") || span.startsWith("@")) return false;
  if (span.includes("/")) return true;
  const ext = /\.([a-z]+)$/.exec(span);
  return ext !== null && EXTENSIONS.has(ext[1]);
}

/** One path segment's pattern as a regular expression: `<name>` and `*` stand for any characters but "/". */
function segmentPattern(segment: string): RegExp {
  const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  const parts = segment.split(/(<[^>]*>|\*)/).map((part) => (part === "*" || /^<.*>$/.test(part) ? "[^/]*" : escape(part)));
  return new RegExp(`^${parts.join("")}$`);
}

/** Whether `segments` (a glob relative to `dir`) names something that exists; `folder`: the last one must be a folder. */
function globExists(dir: string, segments: string[], folder: boolean): boolean {
  if (segments.length === 0) return !folder || statSync(dir).isDirectory();
  const [first, ...rest] = segments;
  let entries: string[];
  try {
    entries = statSync(dir).isDirectory() ? readdirSync(dir) : [];
  } catch {
    return false;
  }
  entries = entries.filter((name) => name !== "node_modules" && name !== ".git");
  if (first === "**") {
    if (globExists(dir, rest, folder)) return true;
    return entries.some((name) => globExists(path.join(dir, name), segments, folder));
  }
  const pattern = segmentPattern(first);
  return entries.some((name) => pattern.test(name) && globExists(path.join(dir, name), rest, folder));
}

function exists(relative: string, base: string): boolean {
  const folder = relative.endsWith("/");
  const clean = relative.replace(/\/+$/, "");
  if (!/[<>*]/.test(clean)) {
    const full = path.join(base, clean);
    return existsSync(full) && (!folder || statSync(full).isDirectory());
  }
  const segments = clean.split("/");
  if (globExists(base, segments, folder)) return true;
  // `<network>` names a file made per case, which a fresh clone may not have yet
  // (`deployments/<network>.json`): then the folder it goes in must exist.
  const placeholder = segments.findIndex((segment) => /<[^>]*>/.test(segment));
  const before = segments.slice(0, placeholder);
  return placeholder >= 0 && !before.some((segment) => segment.includes("*")) && exists(`${before.join("/")}/`, base);
}

/** Paths git ignores are build output: a fresh clone has none of them until something is built. */
function ignoredByGit(relative: string): boolean {
  const result = spawnSync("git", ["check-ignore", "-q", "--no-index", relative], { cwd: ROOT });
  return result.status === 0;
}

/** GitHub's anchors for a markdown file's headings (lower case, punctuation dropped, spaces as "-"). */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

function main(): void {
  const missing: string[] = [];
  const checked: Reference[] = [];
  for (const doc of DOCS) {
    const docDir = path.dirname(path.join(ROOT, doc));
    let fenced = false;
    readFileSync(path.join(ROOT, doc), "utf8")
      .split("\n")
      .forEach((text, index) => {
        if (text.startsWith("```")) fenced = !fenced;
        if (fenced || text.startsWith("```")) return;
        const at = `${doc}:${index + 1}`;
        for (const [, span] of text.matchAll(/`([^`]+)`/g)) {
          if (!isRepoPath(span)) continue;
          checked.push({ file: doc, line: index + 1, text: span });
          if (!exists(span, ROOT) && !ignoredByGit(span)) missing.push(`${at}: ${span}`);
        }
        // Code spans are taken out first: a bracket inside one is not a link.
        for (const [, target] of text.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)) {
          if (/^[a-z]+:/i.test(target)) continue;
          const [file, anchor] = target.split("#");
          const full = file ? path.resolve(docDir, file) : path.join(ROOT, doc);
          const relative = path.relative(ROOT, full);
          checked.push({ file: doc, line: index + 1, text: target });
          if (!existsSync(full)) missing.push(`${at}: ${target} (${relative} does not exist)`);
          else if (anchor && full.endsWith(".md") && !anchorsOf(full).has(anchor)) {
            missing.push(`${at}: ${target} (no heading #${anchor} in ${relative})`);
          }
        }
      });
  }
  const distinct = new Set(checked.map((ref) => ref.text)).size;
  if (missing.length > 0) {
    for (const line of missing) console.log(line);
    console.log(`${missing.length} of ${checked.length} paths named in ${DOCS.length} files are missing.`);
    process.exit(1);
  }
  console.log(`Checked ${checked.length} paths (${distinct} distinct) named in ${DOCS.length} files: all exist.`);
}

main();
