// Coverage of contracts/ only: the test-only contracts under contracts/test are not the product.
module.exports = {
  skipFiles: ["test/"],
  istanbulReporter: ["text", "json-summary", "lcov"],
  // Hardhat-style typechain files are regenerated after instrumentation; keep mocha's timeout for the multi-year test.
  mocha: { timeout: 300000 },
};
