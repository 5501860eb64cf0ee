// The lint that `npm test` runs (npm run lint). Two jobs: typescript-eslint's recommended rules over
// all our TypeScript, and the layers of the dashboard and of the server held by a rule rather than by
// discipline (eslint-plugin-boundaries):
//
//   dashboard: app -> features -> components -> lib -> common (and the contracts' bindings)
//   server:    entry (server/src/*.ts) -> routes, middleware -> services -> db, chain -> config, lib -> common
//
// A layer imports only itself and layers to its right; a feature imports only itself (what two
// features share moves down to components/ or lib/); the server never imports the dashboard. Import
// cycles, type-only ones included, are dependency-cruiser's (.dependency-cruiser.cjs), also in
// `npm run lint`. docs/architecture/dashboard.md and docs/architecture/server.md say why.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import boundaries from "eslint-plugin-boundaries";

/**
 * The layers, by folder from the repo's root; the first pattern a file matches names its layer.
 * `common` and `bindings` are the code the dashboard and the server share. (frontend/src/main.tsx,
 * the dashboard's entry point, only mounts app; the server's entry points are server/src/*.ts.)
 */
const LAYERS = [
  { type: "dashboard-app", pattern: "frontend/src/app", partialMatch: false },
  { type: "dashboard-feature", pattern: "frontend/src/features/*", capture: ["feature"], partialMatch: false },
  { type: "dashboard-components", pattern: "frontend/src/components", partialMatch: false },
  { type: "dashboard-lib", pattern: "frontend/src/lib", partialMatch: false },
  { type: "dashboard-test-setup", pattern: "frontend/src/test", partialMatch: false },
  // Anything else of the dashboard's (its build config, its root files): never the server's to import.
  { type: "dashboard", pattern: "frontend", partialMatch: false },
  { type: "server-routes", pattern: "server/src/routes", partialMatch: false },
  { type: "server-middleware", pattern: "server/src/middleware", partialMatch: false },
  { type: "server-services", pattern: "server/src/services", partialMatch: false },
  { type: "server-db", pattern: "server/src/db", partialMatch: false },
  { type: "server-chain", pattern: "server/src/chain", partialMatch: false },
  { type: "server-config", pattern: "server/src/config", partialMatch: false },
  { type: "server-lib", pattern: "server/src/lib", partialMatch: false },
  // index.ts, app.ts, compose.ts, dashboard.ts: what starts the server and wires its parts.
  { type: "server-entry", pattern: "server/src", partialMatch: false },
  { type: "common", pattern: "common", partialMatch: false },
  { type: "bindings", pattern: "typechain-types", partialMatch: false },
];

const SERVER_BELOW_SERVICES = ["server-db", "server-chain", "server-config", "server-lib", "common", "bindings"];
const SERVER_BELOW_ENTRY = ["server-routes", "server-middleware", "server-services", ...SERVER_BELOW_SERVICES];

/** Which layers each layer may import; tests may also use the shared test setup (frontend/src/test). */
function layerRules(isTest) {
  const testSetup = isTest ? ["dashboard-test-setup"] : [];
  const may = (from, to) => ({ from: { element: { type: from } }, allow: { to: { element: { type: [...to, ...testSetup] } } } });
  return [
    may("dashboard-app", ["dashboard-app", "dashboard-feature", "dashboard-components", "dashboard-lib", "common", "bindings"]),
    // A feature imports itself, never another feature.
    {
      from: { element: { type: "dashboard-feature" } },
      allow: { to: { element: { type: "dashboard-feature", captured: { feature: "{{ from.element.captured.feature }}" } } } },
    },
    may("dashboard-feature", ["dashboard-components", "dashboard-lib", "common", "bindings"]),
    may("dashboard-components", ["dashboard-components", "dashboard-lib", "common", "bindings"]),
    may("dashboard-lib", ["dashboard-lib", "common", "bindings"]),
    may("common", ["common", "bindings"]),
    // The server, top to bottom: each layer may use those below it, never one above.
    may("server-entry", ["server-entry", ...SERVER_BELOW_ENTRY]),
    may("server-routes", ["server-routes", "server-middleware", "server-services", ...SERVER_BELOW_SERVICES]),
    may("server-middleware", ["server-middleware", "server-services", ...SERVER_BELOW_SERVICES]),
    may("server-services", ["server-services", ...SERVER_BELOW_SERVICES]),
    may("server-db", ["server-db", "server-config", "server-lib", "common", "bindings"]),
    may("server-chain", ["server-chain", "server-config", "server-lib", "common", "bindings"]),
    may("server-config", ["server-config", "server-lib", "common"]),
    may("server-lib", ["server-lib", "common", "bindings"]),
    may("dashboard-test-setup", [
      "dashboard-test-setup",
      "dashboard-app",
      "dashboard-feature",
      "dashboard-components",
      "dashboard-lib",
      "common",
      "bindings",
    ]),
    // The dashboard's entry point (main.tsx) and build config start it: they may reach any of its layers.
    may("dashboard", [
      "dashboard",
      "dashboard-app",
      "dashboard-feature",
      "dashboard-components",
      "dashboard-lib",
      "dashboard-test-setup",
      "common",
      "bindings",
    ]),
  ];
}

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      "**/dist/**",
      "typechain-types/**",
      "artifacts/**",
      "cache/**",
      "coverage/**",
      "deployments/**",
      ".local/**",
      "**/*.js",
      "**/*.cjs",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // An argument or binding named with a leading underscore is unused on purpose (a signature
      // that must take it, or the rest of a destructuring).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ["frontend/src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks, boundaries },
    settings: {
      // The dashboard's path aliases (@/, @common/, @bindings), resolved as TypeScript does.
      "import/resolver": { typescript: { project: "frontend/tsconfig.json" } },
      "boundaries/elements": LAYERS,
      "boundaries/include": ["frontend/src/**/*", "common/**/*", "typechain-types/**/*"],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "boundaries/dependencies": ["error", { default: "disallow", policies: layerRules(false) }],
    },
  },
  {
    files: ["server/src/**/*.ts"],
    plugins: { boundaries },
    settings: {
      "import/resolver": { typescript: { project: "tsconfig.json" } },
      "boundaries/elements": LAYERS,
      "boundaries/include": ["server/src/**/*", "common/**/*", "typechain-types/**/*", "frontend/**/*"],
    },
    rules: {
      "boundaries/dependencies": ["error", { default: "disallow", policies: layerRules(false) }],
    },
  },
  {
    files: ["frontend/src/**/*.test.{ts,tsx}", "frontend/src/**/testUtils.tsx"],
    rules: { "boundaries/dependencies": ["error", { default: "disallow", policies: layerRules(true) }] },
  },
);
