/**
 * Import cycles anywhere in the tree, type-only imports included (ESLint's import-x/no-cycle skips
 * those, and a type-only cycle still ties two files together): `npm run lint` runs this.
 * The layers themselves are ESLint's (eslint-plugin-boundaries, eslint.config.mjs).
 */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Two files that reach each other through imports: move what both need into a third, lower file.",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|typechain-types|artifacts|cache|coverage|\\.local|frontend/dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".mts", ".js", ".mjs", ".json"] },
  },
};
