import { z } from "zod";
import { SCENARIO_NAME, SCENARIO_NAME_RULE } from "../scenarios";
import { endpoints } from "./endpoint";
import { BlockNumber, IsoDate, ok } from "./schemas";

/**
 * /api/scenarios and /api/snapshots: the dashboard's Scenarios panel, for testers on the local
 * chain. The shipped scenarios (scenarios/*.yaml) and the node's named snapshots, and one run at a
 * time per server (applying a scenario or restoring a snapshot), whose progress the panel polls.
 * Off the local chain every endpoint answers 404 with a sentence: nothing here may touch a public chain.
 */

/** The lines of a run the server keeps and answers: the last ones, so a long apply cannot grow the answer without end. */
export const RUN_LINES_KEPT = 200;

// ---------------------------------------------------------------- records

export const ScenarioSummary = z
  .strictObject({
    name: z.string().meta({ description: "The file's name without its extension.", example: "paused" }),
    file: z.string().meta({ description: "The file's path from the repository's root.", example: "scenarios/paused.yaml" }),
    description: z.string().meta({
      description: "The file's header sentence: what a tester checks with it.",
      example: "The token is paused: every transfer, mint and burn is refused.",
    }),
  })
  .meta({ id: "Scenario" });
export type ScenarioSummary = z.infer<typeof ScenarioSummary>;

export const SnapshotSummary = z
  .strictObject({
    name: z.string().meta({ example: "before-payments" }),
    blockNumber: BlockNumber.meta({ description: "The chain's head when it was taken." }),
    takenAt: IsoDate,
  })
  .meta({ id: "Snapshot" });
export type SnapshotSummary = z.infer<typeof SnapshotSummary>;

export const RunKind = z
  .enum(["apply", "restore"])
  .meta({ description: "'apply': a scenario applied to the chain. 'restore': the node returned to a snapshot." });
export type RunKind = z.infer<typeof RunKind>;

export const RunState = z
  .enum(["running", "done", "failed"])
  .meta({ description: "running until the engine answers; then done, or failed with the error's sentence." });
export type RunState = z.infer<typeof RunState>;

const Count = z.number().int().min(0);

export const ScenarioRun = z
  .strictObject({
    kind: RunKind,
    name: z.string().meta({ description: "The scenario applied, or the snapshot restored.", example: "paused" }),
    state: RunState,
    done: Count.meta({ description: "Steps finished.", example: 3 }),
    total: Count.meta({ description: "Steps planned: 0 until the plan is made, and for a chain already in the state.", example: 12 }),
    label: z
      .string()
      .nullable()
      .meta({ description: "The step just finished or under way, in words; null before the first.", example: "mint 10,000 USDX to alice" }),
    lines: z.array(z.string()).meta({
      description: `What the run said so far: each step's label as it came, then the engine's report (accounts, Safes). The last ${RUN_LINES_KEPT}.`,
    }),
    sent: Count.nullable().meta({
      description: "An apply that is done: the transactions it sent (0: the chain was already in the state).",
    }),
    error: z.string().nullable().meta({
      description: "Why it failed, in a sentence; null unless failed.",
      example: "The node at RPC_URL is not answering.",
    }),
    startedAt: IsoDate,
    finishedAt: IsoDate.nullable(),
  })
  .meta({ id: "ScenarioRun" });
export type ScenarioRun = z.infer<typeof ScenarioRun>;

// ---------------------------------------------------------------- input

const name = (what: string) =>
  z
    .string({ message: `the ${what} name must be text` })
    .regex(SCENARIO_NAME, SCENARIO_NAME_RULE)
    .meta({ description: `The ${what}'s name: 1 to 64 letters, digits, '-' or '_', starting with a letter or digit.` });

export const NewSnapshot = z.object({ name: name("snapshot").meta({ example: "before-payments" }) });
export type NewSnapshot = z.output<typeof NewSnapshot>;

// ---------------------------------------------------------------- endpoints

const RULES =
  "\n\nThe local chain only: on any other network every /api/scenarios and /api/snapshots endpoint answers 404 with a sentence. 503 while this server has no scenario engine. Signed-in users only.";
const ONE_RUN =
  " One run at a time per server: while an apply or a restore runs, another is refused with 409. It answers 202 at once; follow it with GET /api/scenarios/run.";
const Run = ok({ run: ScenarioRun });

export const scenariosApi = endpoints({
  "GET /api/scenarios": {
    tag: "Scenarios",
    summary: "The shipped scenarios, the snapshots and the last run",
    description: `The scenarios shipped in scenarios/, the node's named snapshots, and the run under way or the last one (null: none since the server started). 409 with the engine's sentence when it cannot read them.${RULES}`,
    access: "user",
    answer: ok({ scenarios: z.array(ScenarioSummary), snapshots: z.array(SnapshotSummary), run: ScenarioRun.nullable() }),
    errors: [404, 409, 503],
    noStore: true,
  },
  "GET /api/scenarios/run": {
    tag: "Scenarios",
    summary: "The run under way, or the last one",
    description: `Its progress: state, steps done of the total, the step's label, the lines so far, and the error's sentence if it failed. null: no run since the server started.${RULES}`,
    access: "user",
    answer: ok({ run: ScenarioRun.nullable() }),
    errors: [404, 503],
    noStore: true,
  },
  "POST /api/scenarios/:name/apply": {
    tag: "Scenarios",
    summary: "Apply a shipped scenario",
    description: `Starts applying the scenario: the engine reads the chain and sends only the transactions needed to reach its state, for everyone on this chain. 404 for a name that is not shipped.${ONE_RUN} Rate limited per user.${RULES}`,
    access: "user",
    params: z.object({ name: name("scenario").meta({ example: "paused" }) }),
    status: 202,
    answer: Run,
    errors: [404, 409, 429, 503],
  },
  "POST /api/snapshots": {
    tag: "Scenarios",
    summary: "Take a snapshot of the node",
    description: `Saves the chain as it is now under a name, to restore later. Refused with 409 while a run is under way (it would save a state half applied) or when the engine refuses the name. Rate limited per user.${RULES}`,
    access: "user",
    body: NewSnapshot,
    status: 201,
    answer: ok({ snapshot: SnapshotSummary }),
    errors: [404, 409, 429, 503],
  },
  "POST /api/snapshots/:name/restore": {
    tag: "Scenarios",
    summary: "Restore a snapshot",
    description: `Starts returning the node to the snapshot: every block since it was taken is undone, for everyone on this chain. What lives only in the server's database (contacts, bank records) is kept. 404 for a snapshot that does not exist.${ONE_RUN} Rate limited per user.${RULES}`,
    access: "user",
    params: z.object({ name: name("snapshot").meta({ example: "before-payments" }) }),
    status: 202,
    answer: Run,
    errors: [404, 409, 429, 503],
  },
});
