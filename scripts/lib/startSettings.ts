import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { envPort } from "@common/networks";

/*
 * What `npm start` takes from the environment besides the ports the node, the API and the
 * dashboard already read (LOCAL_RPC_PORT, SERVER_PORT, DASHBOARD_PORT): where its logs go and the
 * Auth emulator's ports. Unset, they are what they always were (.local/ and firebase.json's); set,
 * a second `npm start` (the fork's browser test) runs beside a developer's own without touching
 * its ports or its logs.
 */

/** START_LOG_DIR (absolute, or relative to the repo), else .local/. */
export function startLogDir(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(root, env.START_LOG_DIR || ".local");
}

/** A path as start prints it: relative to the repo when inside it. */
export function shownPath(root: string, file: string): string {
  const relative = path.relative(root, file);
  return relative.startsWith("..") || path.isAbsolute(relative) ? file : relative;
}

export interface AuthEmulatorSettings {
  host: string;
  /** The Auth emulator's own port, and the hub and logging ports it opens beside it. */
  port: number;
  hub: number;
  logging: number;
  /** `--config <file>` for `firebase emulators:start` when a port moved; none when firebase.json's stand. */
  configArgs: string[];
  /** Where the emulator runs, and so where it leaves its firebase-debug.log: beside the config it reads. */
  cwd: string;
}

interface EmulatorAddress {
  host: string;
  port: number;
}

interface FirebaseJson {
  emulators: { auth: EmulatorAddress; hub: EmulatorAddress; logging: EmulatorAddress } & Record<string, unknown>;
}

/**
 * AUTH_EMULATOR_PORT, EMULATOR_HUB_PORT and EMULATOR_LOGGING_PORT, else firebase.json's ports. When
 * one differs, firebase.json with those ports is written into `dir` for `--config`: the repo's
 * firebase.json never changes.
 */
export function authEmulatorSettings(root: string, dir: string, env: NodeJS.ProcessEnv = process.env): AuthEmulatorSettings {
  const config = JSON.parse(readFileSync(path.join(root, "firebase.json"), "utf8")) as FirebaseJson;
  const { auth, hub, logging } = config.emulators;
  const ports = {
    port: envPort("AUTH_EMULATOR_PORT", auth.port, env),
    hub: envPort("EMULATOR_HUB_PORT", hub.port, env),
    logging: envPort("EMULATOR_LOGGING_PORT", logging.port, env),
  };
  if (ports.port === auth.port && ports.hub === hub.port && ports.logging === logging.port) {
    return { host: auth.host, ...ports, configArgs: [], cwd: root };
  }
  const moved: FirebaseJson = {
    ...config,
    emulators: {
      ...config.emulators,
      auth: { ...auth, port: ports.port },
      hub: { ...hub, port: ports.hub },
      logging: { ...logging, port: ports.logging },
    },
  };
  const file = path.join(dir, "firebase.json");
  writeFileSync(file, JSON.stringify(moved, null, 2) + "\n");
  return { host: auth.host, ...ports, configArgs: ["--config", file], cwd: dir };
}
