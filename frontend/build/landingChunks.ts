import path from "node:path";

/**
 * The signed-in landing page (/) as two chunks, the page frame and the Dashboard, each with the
 * modules it imports that the entry does not: split as the bundler splits by default, they were
 * some 45 files of a few hundred bytes each (an icon, a card), and a phone on HTTP/1.1 fetches six
 * at a time, a round trip each. Only static imports are followed, so what loads lazily (dialogs,
 * Admin Functions, the chart, the chain reads) stays in its own chunk; another page that shares a
 * module with the frame or the Dashboard loads that chunk, as it loads the frame anyway.
 */
export const LANDING_CHUNKS: [name: string, source: string][] = [
  ["frame", "src/app/layout/Frame.tsx"],
  ["dashboard", "src/app/pages/DashboardRoute.tsx"],
];
const ENTRY_SOURCE = "src/main.tsx";
/**
 * The two chunks take the app's own modules and the icons they show. Other packages stay as the
 * bundler splits them: taken into a chunk, a package's unused parts (most of ethers) were no
 * longer left out.
 */
const NOT_CAPTURED = /[\\/]node_modules[\\/](?!lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/])/;
/**
 * lucide-react's index, which re-exports every icon: followed as it stands, every icon would be
 * the entry's. A closure follows only the icons its modules import by name; a module that imports
 * the index otherwise (a namespace) takes every icon, as before.
 */
const ICON_INDEX = /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$/;
const ICON_FILE = /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/;
type ModuleGraph = {
  getModuleInfo(id: string): { importedIds: readonly string[]; dynamicImporters: readonly string[]; code: string | null } | null;
};
const landingOwners = new WeakMap<ModuleGraph, Map<string, string>>();

/** The icon modules of lucide-react's index by the names it exports them as. */
function iconFiles(graph: ModuleGraph, index: string): Map<string, string> {
  const files = new Map<string, string>();
  const code = graph.getModuleInfo(index)?.code ?? "";
  for (const [, names, file] of code.matchAll(/export \{([^}]*)\} from '(\.\/icons\/[^']+)'/g))
    for (const name of names.matchAll(/as (\w+)/g)) files.set(name[1], path.resolve(path.dirname(index), file));
  return files;
}

/** The icons `code` imports from lucide-react by name; null when it imports it otherwise. */
function namedIcons(code: string): string[] | null {
  const names: string[] = [];
  for (const found of code.matchAll(/import\s+([^;]*?)\s+from\s*["']lucide-react["']/g)) {
    const named = /^\{([^}]*)\}$/.exec(found[1].trim());
    if (!named) return null;
    names.push(
      ...named[1]
        .split(",")
        .map((part) => part.trim().split(/\s+as\s+/)[0])
        .filter(Boolean),
    );
  }
  return names;
}

/** The static imports of `from`, themselves included (script modules only). */
function staticClosure(graph: ModuleGraph, from: string): Set<string> {
  const seen = new Set<string>();
  const stack = [from];
  let icons: Map<string, string> | null = null;
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id) || id.startsWith("\0") || !/\.[cm]?[jt]sx?$/.test(id)) continue;
    seen.add(id);
    const info = graph.getModuleInfo(id);
    const imported = info?.importedIds ?? [];
    const index = imported.find((i) => ICON_INDEX.test(i));
    const named = index && info?.code ? namedIcons(info.code) : null;
    if (index && named) {
      icons ??= iconFiles(graph, index);
      // The index itself, without its icons; and the icons this module names.
      seen.add(index);
      stack.push(
        ...(graph.getModuleInfo(index)?.importedIds ?? []).filter((i) => !ICON_FILE.test(i) && !/[\\/]icons[\\/]index\.mjs$/.test(i)),
      );
      stack.push(...named.map((name) => icons!.get(name)).filter((file): file is string => file !== undefined));
      stack.push(...imported.filter((i) => i !== index));
    } else stack.push(...imported);
  }
  return seen;
}

/**
 * The bundler's chunk-name function for the landing page's modules (frontend/ at `root`): "frame"
 * or "dashboard" for a module of those closures, null (the bundler's own split) for the rest.
 */
export function landingChunks(root: string): (id: string, graph: ModuleGraph) => string | null {
  return (id, graph) => landingChunk(root, id, graph);
}

function landingChunk(here: string, id: string, graph: ModuleGraph): string | null {
  let owners = landingOwners.get(graph);
  if (!owners) {
    owners = new Map();
    const taken = staticClosure(graph, path.resolve(here, ENTRY_SOURCE));
    for (const [name, source] of LANDING_CHUNKS) {
      for (const module of staticClosure(graph, path.resolve(here, source))) {
        // A module something loads with import() keeps its own chunk: taken into a group, the
        // bundler left the chunk it then needs without the namespace it exports.
        if (taken.has(module) || NOT_CAPTURED.test(module) || graph.getModuleInfo(module)!.dynamicImporters.length > 0) continue;
        taken.add(module);
        owners.set(module, name);
      }
    }
    landingOwners.set(graph, owners);
  }
  return owners.get(id) ?? null;
}
