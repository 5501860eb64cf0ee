import type { JsonRpcApiProvider, JsonRpcSigner } from "ethers";
import type { DeploymentManifest, SafeContracts } from "@common/manifest";
import type { PlanStep } from "./index";

/*
 * What a plan is made of, shared by the planner (plan.ts) and the sender (apply.ts): steps in words,
 * each run through one context that sends as whoever it names.
 */

/** A Safe the plan creates is named "safe:<name>" until it exists; everyone else by address. */
export const PENDING_SAFE = "safe:";

export interface SendContext {
  provider: JsonRpcApiProvider;
  /** The manifest as it stands: a created Safe is added to it (and to the file). */
  manifest: DeploymentManifest;
  /** The address behind a participant: itself, or a Safe the plan created. */
  address(who: string): string;
  /** A signer that sends as `who` through the node: one of its unlocked accounts, or impersonated (with gas money). */
  signer(who: string): Promise<JsonRpcSigner>;
  /** Sends one call as `who` and waits for it to be mined; throws the contract's refusal in words. Gas: estimated, unless given. */
  send(who: string, to: string, data: string, gasLimit?: bigint): Promise<void>;
  /** Records a Safe the plan created: in the manifest on disk, and for address(). */
  safeCreated(name: string, address: string, contracts: SafeContracts): void;
}

export interface Step extends PlanStep {
  /** The transactions it sends: one, or four for Safe's contracts; none for a node call (hardhat_setBalance) or a request to the API server. */
  transactions: number;
  /** A step of the Firebase test user's part, through the API server (apply.ts). */
  api?: boolean;
  /** Resolves with the transactions it sent, when fewer than `transactions`. */
  run(ctx: SendContext): Promise<void | number>;
}
