/**
 * Preloaded into the Firebase Auth emulator (parts.ts, startAuthEmulator): its API is exegesis
 * over an OpenAPI document, and exegesis compiles every request and response schema of that
 * document with ajv before the emulator answers, which was about 12 s of CPU at each start (most of
 * the emulator's start, paid by `npm start` and by each test suite's stack). With exegesis's own
 * `lazyCompileValidationSchemas` option a schema is compiled when its operation is first called:
 * the same validation, the same answers, and a start of about 4 s of CPU. The emulator does not
 * expose the option, so its options are given that default here. Should exegesis move or change,
 * nothing is patched and the emulator starts as before, only slower.
 */
try {
  const options = require("exegesis/lib/options");
  const compileOptions = options.compileOptions;
  if (typeof compileOptions === "function") {
    options.compileOptions = (given = {}) => compileOptions({ lazyCompileValidationSchemas: true, ...given });
  }
} catch {
  // Not found: the emulator starts unpatched.
}
