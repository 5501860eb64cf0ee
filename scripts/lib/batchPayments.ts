import { getAddress } from "ethers";
import type { Provider, Signer } from "ethers";
import { BatchPayments__factory } from "@bindings";

/*
 * BatchPayments for a USDX proxy: deploying one (scripts/deploy.ts after the proxy, and
 * `usdx adopt --deploy-batch-payments` for a token someone else deployed) and telling whether a
 * contract is one bound to the proxy (adopt).
 */

export interface BatchPaymentsDeployment {
  address: string;
  /** The creation transaction's hash. */
  transaction: string;
  block: number;
}

/** Deploys BatchPayments for `token` from `deployer` and waits for its receipt. */
export async function deployBatchPayments(deployer: Signer, token: string): Promise<BatchPaymentsDeployment> {
  const batch = await new BatchPayments__factory(deployer).deploy(token);
  const receipt = await batch.deploymentTransaction()?.wait();
  if (!receipt) throw new Error("BatchPayments' deployment transaction has no receipt.");
  return { address: getAddress(await batch.getAddress()), transaction: receipt.hash, block: receipt.blockNumber };
}

/** Why `address` is not a BatchPayments bound to `proxy`, or null when it is one. */
export async function batchPaymentsProblem(provider: Provider, address: string, proxy: string): Promise<string | null> {
  const code = await provider.getCode(address);
  if (code === "0x") return "has no code";
  // Its dispatcher pushes each function's selector (PUSH4, 0x63): a contract without them is another contract.
  const missing: string[] = [];
  BatchPayments__factory.createInterface().forEachFunction((f) => {
    if (!code.includes(`63${f.selector.slice(2)}`)) missing.push(f.name);
  });
  if (missing.length > 0) return `is not a BatchPayments contract (it has no ${orList(missing)})`;
  const token = await BatchPayments__factory.connect(address, provider)
    .token()
    .catch(() => null);
  if (token === null) return "is not a BatchPayments contract (it does not answer token)";
  if (getAddress(token) !== proxy) return `is a BatchPayments for the token ${getAddress(token)}, not for ${proxy}`;
  return null;
}

/** 'a', 'a or b', 'a, b or c'. */
function orList(items: string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}
