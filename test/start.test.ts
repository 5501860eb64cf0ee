/**
 * `npm start`'s settings from the environment (scripts/lib/startSettings.ts): with none set it runs
 * as it always did; with them, a second `npm start` keeps off a developer's ports and logs.
 */
import { expect } from "chai";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { authEmulatorSettings, shownPath, startLogDir } from "../scripts/lib/startSettings";

const ROOT = path.resolve(__dirname, "..");
const firebaseJson = () => JSON.parse(readFileSync(path.join(ROOT, "firebase.json"), "utf8"));

describe("npm start's settings", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "usdx-start-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps .local/ and firebase.json's emulator ports when nothing is set: no --config, nothing written", () => {
    expect(startLogDir(ROOT, {})).to.equal(path.join(ROOT, ".local"));
    const { auth, hub, logging } = firebaseJson().emulators;
    expect(authEmulatorSettings(ROOT, dir, {})).to.deep.equal({
      host: auth.host,
      port: auth.port,
      hub: hub.port,
      logging: logging.port,
      configArgs: [],
      cwd: ROOT,
    });
    // The same ports spelled out are no move either.
    expect(authEmulatorSettings(ROOT, dir, { AUTH_EMULATOR_PORT: String(auth.port), EMULATOR_HUB_PORT: "" }).configArgs).to.deep.equal([]);
    expect(readdirSync(dir)).to.deep.equal([]);
  });

  it("moves the logs to START_LOG_DIR, absolute or relative to the repo", () => {
    expect(startLogDir(ROOT, { START_LOG_DIR: dir })).to.equal(dir);
    expect(startLogDir(ROOT, { START_LOG_DIR: ".local/second" })).to.equal(path.join(ROOT, ".local", "second"));
    expect(shownPath(ROOT, path.join(ROOT, ".local", "api.log"))).to.equal(path.join(".local", "api.log"));
    expect(shownPath(ROOT, path.join(dir, "api.log"))).to.equal(path.join(dir, "api.log"));
  });

  it("writes firebase.json with the moved ports into the log directory, for --config; the rest as firebase.json has it", () => {
    const settings = authEmulatorSettings(ROOT, dir, {
      AUTH_EMULATOR_PORT: "19099",
      EMULATOR_HUB_PORT: "14400",
      EMULATOR_LOGGING_PORT: "14500",
    });
    const file = path.join(dir, "firebase.json");
    expect(settings).to.deep.include({ port: 19099, hub: 14400, logging: 14500, configArgs: ["--config", file], cwd: dir });
    const original = firebaseJson();
    const written = JSON.parse(readFileSync(file, "utf8"));
    expect(written).to.deep.equal({
      ...original,
      emulators: {
        ...original.emulators,
        auth: { ...original.emulators.auth, port: 19099 },
        hub: { ...original.emulators.hub, port: 14400 },
        logging: { ...original.emulators.logging, port: 14500 },
      },
    });
  });

  it("refuses a port that is not one, naming the variable", () => {
    expect(() => authEmulatorSettings(ROOT, dir, { AUTH_EMULATOR_PORT: "auth" })).to.throw(
      "AUTH_EMULATOR_PORT must be a port number (1-65535), not 'auth'.",
    );
    expect(() => authEmulatorSettings(ROOT, dir, { EMULATOR_LOGGING_PORT: "70000" })).to.throw(
      /EMULATOR_LOGGING_PORT must be a port number/,
    );
    expect(existsSync(path.join(dir, "firebase.json"))).to.equal(false);
  });
});
