import { z } from "zod";
import { ROLE_NAMES } from "../roles";
import { endpoints } from "./endpoint";
import { Address } from "./schemas";

/** GET /api/config: what the dashboard needs to start. */
export const DashboardConfig = z
  .strictObject({
    network: z.enum(["localhost", "sepolia"]).meta({ example: "localhost" }),
    chainId: z.number().int().meta({ example: 31337 }),
    chainIdHex: z.string().meta({ example: "0x7a69" }),
    networkLabel: z.string().meta({ example: "Local Hardhat" }),
    fork: z
      .strictObject({ chainId: z.number().int(), name: z.string(), block: z.number().int() })
      .nullable()
      .meta({ description: "A local fork of another chain: what it forks and where; null otherwise." }),
    explorerUrl: z.string().nullable(),
    rpcUrl: z
      .string()
      .nullable()
      .meta({ description: "The RPC URL a browser may use (never the server's keyed provider URL); null when there is none." }),
    contracts: z.strictObject({
      proxy: Address,
      implementation: Address,
      owner: Address,
      batchPayments: Address,
      deploymentBlock: z.number().int(),
    }),
    token: z.strictObject({ decimals: z.number().int() }),
    firebase: z.strictObject({
      projectId: z.string(),
      apiKey: z.string().meta({ description: "The Firebase project's web API key: public by design." }),
      authDomain: z.string(),
      emulatorUrl: z.string().nullable(),
    }),
    confirmations: z.number().int().meta({ description: "How deep a block must be before the index takes it as final." }),
    batch: z.strictObject({ maxRows: z.number().int(), chunkSize: z.number().int() }),
    multiplierMaxStepPercent: z.number().min(0).max(1000).meta({
      description:
        "The largest rise of the reward multiplier, in percent of every balance, that the dashboard's forms send without the new value typed again (MULTIPLIER_MAX_STEP_PERCENT); any decrease is always typed again.",
      example: 1,
    }),
    mockBank: z.boolean(),
    devAccounts: z
      .array(z.strictObject({ name: z.string(), address: Address, roles: z.array(z.enum(ROLE_NAMES)).readonly(), description: z.string() }))
      .nullable()
      .meta({ description: "The local chain's seeded accounts (the development wallet); null on other networks." }),
  })
  .meta({ id: "DashboardConfig" });
export type DashboardConfig = z.infer<typeof DashboardConfig>;

export const configurationApi = endpoints({
  "GET /api/config": {
    tag: "Configuration",
    summary: "The dashboard's settings",
    description:
      "The network, the deployment manifest's addresses, sign-in settings and limits, from the one place that knows them. Public: nothing in it is secret.",
    access: "public",
    answer: DashboardConfig,
  },
});
