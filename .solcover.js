// Coverage of contracts/ only: the test-only contracts under contracts/test are not the product.
module.exports = {
  skipFiles: ["test/"],
  istanbulReporter: ["text", "json-summary", "lcov"],
  // Hardhat-style typechain files are regenerated after instrumentation; keep mocha's timeout for the multi-year test.
  // Tests tagged [gas] measure real gas; instrumented contracts cost several times more, so the
  // coverage run leaves them out (npm run test:contracts runs them). [property] sequences add no
  // line or branch the unit tests miss, and would only run slower instrumented; nor do the
  // [scenario] tests of the scenario engine (10,000 holders paid through BatchPayments among them).
  mocha: { timeout: 300000, grep: "\\[gas\\]|\\[property\\]|\\[scenario\\]", invert: true },
};
