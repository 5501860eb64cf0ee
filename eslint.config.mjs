// The lint that `npm test` runs (npm run lint). Two jobs: typescript-eslint's recommended rules over
// all our TypeScript, and the dashboard's layering held by a rule rather than by discipline:
//
//   app -> features -> components -> lib -> common (and the contracts' bindings)
//
// A layer imports only layers to its right; a feature imports only itself (what two features share
// moves down to components/ or lib/). docs/ARCHITECTURE.md, "The dashboard's layers", says why.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import boundaries from "eslint-plugin-boundaries";

/**
 * The dashboard's layers, by folder from the repo's root; `common` and `bindings` are the code it
 * shares with the server. (frontend/src/main.tsx, the entry point, only mounts app.)
 */
const LAYERS = [
  { type: "app", pattern: "frontend/src/app", partialMatch: false },
  { type: "feature", pattern: "frontend/src/features/*", capture: ["feature"], partialMatch: false },
  { type: "components", pattern: "frontend/src/components", partialMatch: false },
  { type: "lib", pattern: "frontend/src/lib", partialMatch: false },
  { type: "test-setup", pattern: "frontend/src/test", partialMatch: false },
  { type: "common", pattern: "common", partialMatch: false },
  { type: "bindings", pattern: "typechain-types", partialMatch: false },
];

/** Which layers each layer may import; tests may also use the shared test setup (frontend/src/test). */
function layerRules(isTest) {
  const testSetup = isTest ? ["test-setup"] : [];
  const may = (from, to) => ({ from: { element: { type: from } }, allow: { to: { element: { type: [...to, ...testSetup] } } } });
  return [
    may("app", ["app", "feature", "components", "lib", "common", "bindings"]),
    // A feature imports itself, never another feature.
    {
      from: { element: { type: "feature" } },
      allow: { to: { element: { type: "feature", captured: { feature: "{{ from.element.captured.feature }}" } } } },
    },
    may("feature", ["components", "lib", "common", "bindings"]),
    may("components", ["components", "lib", "common", "bindings"]),
    may("lib", ["lib", "common", "bindings"]),
    may("common", ["common", "bindings"]),
    may("test-setup", ["test-setup", "app", "feature", "components", "lib", "common", "bindings"]),
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
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
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
    files: ["frontend/src/**/*.test.{ts,tsx}", "frontend/src/**/testUtils.tsx"],
    rules: { "boundaries/dependencies": ["error", { default: "disallow", policies: layerRules(true) }] },
  },
);
