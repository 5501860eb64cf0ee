/**
 * Scenarios for testers (issue 31): a state of the local chain named in a file under scenarios/,
 * applied idempotently, and snapshots of the node to return to. Local chain (and its forks) only:
 * everything here sends from Hardhat's unlocked or impersonated accounts.
 *
 * The parts, each in a file of its own:
 *   schema.ts     the file's zod schema; a wrong file is refused with its file, line and field
 *                 (fields.ts its field types, userSchema.ts the Firebase test user's part)
 *   load.ts       reading a scenario file (YAML or JSON) and the shipped list in scenarios/
 *   plan.ts       reading the chain and planning only the transactions needed to reach the state
 *                 (read.ts the reads, planner.ts the planned state and its steps, movements.ts
 *                 the history, balances and crowd, accounts.ts names to addresses)
 *   apply.ts      sending a plan, step by step, with progress (steps.ts what a step is; report.ts
 *                 the printout; safeContracts.ts Safe v1.4.1 deployed and Safes created)
 *   shipped.ts    the shipped scenarios listed and applied by name: the panel's list and apply
 *   snapshots.ts  named node snapshots (evm_snapshot / evm_revert), kept beside the manifest
 *                 (snapshotCommand.ts: the CLI's snapshot, restore and snapshots)
 *   user.ts       a file's Firebase test user, applied through the API server as a client would
 *                 (userApi.ts the HTTP calls, userBatch.ts its half-paid batch job); apply.ts
 *                 plans it first and sends its steps after the balances
 *   applyCommand.ts  the CLI's apply (the API server: --api-url, or npm start's when it answers)
 *   runs.ts       the panel's one run at a time, its progress kept for the page to poll
 * The CLI (scripts/scenario.ts), `npm start -- --scenario` and the dashboard's Scenarios panel
 * (routes/scenarios.ts) all go through the types below.
 */

/** One shipped or given scenario, as the panel lists it. */
export interface ScenarioSummary {
  /** The file's name without its extension: "paused". */
  name: string;
  /** The file's path from the repo's root: "scenarios/paused.yaml". */
  file: string;
  /** The header's sentence: what a tester checks with it. */
  description: string;
}

/** One transaction of a plan, in words ("mint 10,000 USDX to alice"). */
export interface PlanStep {
  label: string;
}

/** How far an apply or restore has got, for the CLI's lines and the panel's progress bar. */
export interface ScenarioProgress {
  done: number;
  total: number;
  /** The step just finished (or under way). */
  label: string;
}

export interface ApplyResult {
  /** The transactions sent: 0 when the chain was already in the state. */
  sent: number;
  steps: PlanStep[];
  /** Lines to print after the plan: the accounts (and any keys it generated), the Safes. */
  report: string[];
}

/** A named snapshot of the node. */
export interface SnapshotSummary {
  name: string;
  /** The chain's head when it was taken. */
  blockNumber: number;
  takenAt: string;
}

/** What the panel's service needs from the engine and the snapshots; compose.ts gives the real ones. */
export interface ScenarioEngine {
  list(): Promise<ScenarioSummary[]>;
  apply(name: string, onProgress: (p: ScenarioProgress) => void): Promise<ApplyResult>;
  snapshots(): Promise<SnapshotSummary[]>;
  takeSnapshot(name: string): Promise<SnapshotSummary>;
  restore(name: string, onProgress: (p: ScenarioProgress) => void): Promise<void>;
}
