import type { ContractTransactionResponse } from "ethers";
import type { ContractMethodArgs, NonPayableOverrides, TypedContractMethod } from "@bindings/common";

/**
 * One contract write, declared once: the method and its arguments (and a gas limit, where one is
 * needed). The runner dry-runs exactly this (`staticCall`, an eth_call) and then sends exactly this
 * (`send`), so the call that was checked is the call the wallet signs. A write proposed to a Safe
 * instead carries exactly this call's target and calldata (`populate`).
 */
export interface ContractCall {
  /** eth_call of the method with its arguments, from `at.from`, at `at.blockTag`; rejects as the contract would revert. */
  staticCall(at: { from: string; blockTag: "latest" }): Promise<unknown>;
  /** The transaction, through whatever signer the method's contract is bound to. */
  send(): Promise<ContractTransactionResponse>;
  /** The contract's address and the encoded call, without sending: what a Safe proposal asks the Safe to call. */
  populate(): Promise<{ to: string; data: string }>;
}

/**
 * `contractCall(usdx.transfer, [to, amount])`: typechain's method carries both `staticCall` and
 * `send`; this keeps one list of arguments for the two. Called with the method of the contract bound
 * to the read provider for the dry run, and of the one bound to the wallet's signer for the send.
 * A payable method (a Safe's execTransaction) is sent without ether: no write here pays any.
 */
export function contractCall<A extends unknown[], R, S extends "nonpayable" | "payable" = "nonpayable">(
  method: TypedContractMethod<A, R, S>,
  args: A,
  overrides: NonPayableOverrides = {},
): ContractCall {
  // The tuple and its trailing overrides are what ContractMethodArgs describes; TypeScript cannot
  // see through a generic tuple spread, so each list is stated once here.
  const withOverrides = <M extends "view" | S>(extra: object) =>
    [...args, { ...overrides, ...extra }] as unknown as ContractMethodArgs<A, M>;
  const sendArgs = Object.keys(overrides).length > 0 ? withOverrides<S>({}) : (args as unknown as ContractMethodArgs<A, S>);
  return {
    staticCall: (at) => method.staticCall(...withOverrides<"view">(at)),
    send: () => method.send(...sendArgs),
    populate: async () => {
      const tx = await method.populateTransaction(...sendArgs);
      return { to: tx.to, data: tx.data };
    },
  };
}
