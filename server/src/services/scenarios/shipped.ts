import path from "node:path";
import type { JsonRpcApiProvider } from "ethers";
import { applyScenario, type UserPart } from "./apply";
import type { ApplyResult, ScenarioProgress, ScenarioSummary } from "./index";
import { SCENARIOS_DIR, listScenarios, loadScenario } from "./load";
import type { PlanOptions } from "./plan";

/**
 * The shipped scenarios as the dashboard's Scenarios panel uses them: listed, and applied by name
 * on the server's own chain (the `list` and `apply` of the panel's ScenarioEngine; compose.ts adds
 * the snapshots). Only a shipped file can be applied: a name is never a path.
 */
export function shippedScenarios(
  options: PlanOptions & {
    /** The server's node: the local chain or a fork of it. */
    provider: JsonRpcApiProvider;
    /** The Firebase test user's part (user.ts). */
    userPart?: UserPart;
    /** scenarios/ by default. */
    dir?: string;
  },
): {
  list(): Promise<ScenarioSummary[]>;
  apply(name: string, onProgress: (progress: ScenarioProgress) => void | Promise<void>): Promise<ApplyResult>;
} {
  const dir = options.dir ?? SCENARIOS_DIR;
  return {
    list: async () => listScenarios(dir),
    async apply(name, onProgress) {
      const shipped = listScenarios(dir).find((s) => s.name === name);
      if (!shipped) throw new Error(`There is no shipped scenario named '${name}'.`);
      const scenario = loadScenario(path.join(dir, path.basename(shipped.file)));
      const { provider, userPart, network, env } = options;
      const { sent, steps, report } = await applyScenario(scenario, { provider, userPart, network, env, onProgress });
      return { sent, steps, report };
    },
  };
}
