/**
 * The real parts the server runs against, started for the tests on free loopback ports: a Hardhat
 * node (deployed and seeded like `npm start`'s) and the Firebase Auth emulator. Nothing is mocked.
 * Each part starts as `npm start` starts it (scripts/lib/stack/); only the ports differ, and the
 * output, which the tests do not keep.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  deployAndSeed,
  emulatorAnswers,
  nodeAnswers,
  startAuthEmulator as startEmulator,
  startHardhatNode,
} from "../../scripts/lib/stack/parts";
import { QUIET_ENV, freePort, stopProcess, waitFor } from "../../scripts/lib/stack/processes";

// What the test files, the browser tests and the benches import from here.
export { FIREBASE_PROJECT } from "../../scripts/lib/stack/parts";
export { freePort, rpc, stopProcess as kill } from "../../scripts/lib/stack/processes";

export interface Stack {
  rpcUrl: string;
  rpcPort: number;
  deploymentsDir: string;
  emulatorHost: string;
  stop(): Promise<void>;
}

export interface AuthEmulator {
  /** host:port, as FIREBASE_AUTH_EMULATOR_HOST wants it. */
  host: string;
  /** Resolves once the emulator answers. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/** The Firebase Auth emulator on free loopback ports, its config in `dir`. */
export async function startAuthEmulator(dir: string): Promise<AuthEmulator> {
  const [authPort, hubPort, loggingPort] = [await freePort(), await freePort(), await freePort()];
  writeFileSync(
    path.join(dir, "firebase.json"),
    JSON.stringify({
      emulators: {
        auth: { host: "127.0.0.1", port: authPort },
        hub: { host: "127.0.0.1", port: hubPort },
        logging: { host: "127.0.0.1", port: loggingPort },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const { child } = startEmulator({
    configArgs: ["--config", path.join(dir, "firebase.json")],
    cwd: dir,
    env: { ...process.env, ...QUIET_ENV },
    output: "ignore",
  });
  const host = `127.0.0.1:${authPort}`;
  const ready = waitFor("Firebase Auth emulator", emulatorAnswers(host), 90_000, { child });
  ready.catch(() => undefined); // awaited by the caller; never an unhandled rejection meanwhile
  return { host, ready, stop: () => stopProcess(child) };
}

export async function startStack(): Promise<Stack> {
  const dir = mkdtempSync(path.join(tmpdir(), "usdx-server-test-"));
  const deploymentsDir = path.join(dir, "deployments");
  const rpcPort = await freePort();
  const rpcUrl = `http://127.0.0.1:${rpcPort}`;

  const node = startHardhatNode({ host: "127.0.0.1", port: rpcPort, env: { ...process.env, ...QUIET_ENV }, output: "ignore" }).child;
  const emulator = await startAuthEmulator(dir);

  await waitFor("Hardhat node", nodeAnswers(rpcUrl), 60_000, { child: node });
  const local = { ...process.env, ...QUIET_ENV, LOCAL_RPC_PORT: String(rpcPort), DEPLOYMENTS_DIR: deploymentsDir };
  await deployAndSeed({ env: local, output: "capture" });
  await emulator.ready;

  return {
    rpcUrl,
    rpcPort,
    deploymentsDir,
    emulatorHost: emulator.host,
    async stop() {
      await Promise.all([stopProcess(node), emulator.stop()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
