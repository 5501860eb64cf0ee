/*
 * Which Node.js the project runs on: 22 (from 22.19, the oldest that every dependency accepts) and 24.
 * `engines` in package.json says the same.
 *
 * Run as a script (`npm start` and `npm test` run it first), it stops with one sentence when the Node
 * running it is older, and prints nothing otherwise; `--print` prints the version it runs on. As a
 * module it gives that check to scripts/node-setup.js. Plain JavaScript with no dependency, in a
 * syntax any Node parses, so that an old Node gets the sentence and not a syntax error.
 */
"use strict";

var MINIMUM = [22, 19];
var INSTALL = "24";

/** Whether a version ("v22.19.0" or "22.19.0") is one the project runs on. */
function isSupported(version) {
  var parts = String(version).replace(/^v/, "").split(".");
  var major = Number(parts[0]);
  var minor = Number(parts[1]);
  return major > MINIMUM[0] || (major === MINIMUM[0] && minor >= MINIMUM[1]);
}

/** The sentence for a Node the project does not run on; `why` is said before the advice. */
function refusal(version, why) {
  return (
    "USDX Dashboard runs on Node.js " +
    MINIMUM[0] +
    " (" +
    MINIMUM.join(".") +
    " or later) and " +
    INSTALL +
    ", not on Node.js " +
    String(version).replace(/^v/, "") +
    (why ? ", and " + why : "") +
    ": install Node.js " +
    INSTALL +
    " LTS and run npm install again."
  );
}

module.exports = { isSupported: isSupported, refusal: refusal, INSTALL: INSTALL };

if (require.main === module) {
  if (!isSupported(process.version)) {
    console.error(refusal(process.version));
    process.exit(1);
  }
  if (process.argv.indexOf("--print") !== -1) {
    console.log("Node.js " + process.version.replace(/^v/, "") + " (" + process.execPath + ")");
  }
}
