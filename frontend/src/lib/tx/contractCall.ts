import type { ContractTransactionResponse } from "ethers";
import type { ContractMethodArgs, NonPayableOverrides, TypedContractMethod } from "@bindings/common";

/**
 * One contract write, declared once: the method and its arguments (and a gas limit, where one is
 * needed). The runner dry-runs exactly this (`staticCall`, an eth_call) and then sends exactly this
 * (`send`), so the call that was checked is the call the wallet signs.
 */
export interface ContractCall {
  /** eth_call of the method with its arguments, from `at.from`, at `at.blockTag`; rejects as the contract would revert. */
  staticCall(at: { from: string; blockTag: "latest" }): Promise<unknown>;
  /** The transaction, through whatever signer the method's contract is bound to. */
  send(): Promise<ContractTransactionResponse>;
}

/**
 * `contractCall(usdx.transfer, [to, amount])`: typechain's method carries both `staticCall` and
 * `send`; this keeps one list of arguments for the two. Called with the method of the contract bound
 * to the read provider for the dry run, and of the one bound to the wallet's signer for the send.
 */
export function contractCall<A extends unknown[], R>(
  method: TypedContractMethod<A, R, "nonpayable">,
  args: A,
  overrides: NonPayableOverrides = {},
): ContractCall {
  // The tuple and its trailing overrides are what ContractMethodArgs describes; TypeScript cannot
  // see through a generic tuple spread, so each list is stated once here.
  const withOverrides = <S extends "view" | "nonpayable">(extra: object) =>
    [...args, { ...overrides, ...extra }] as unknown as ContractMethodArgs<A, S>;
  const sendArgs =
    Object.keys(overrides).length > 0 ? withOverrides<"nonpayable">({}) : (args as unknown as ContractMethodArgs<A, "nonpayable">);
  return {
    staticCall: (at) => method.staticCall(...withOverrides<"view">(at)),
    send: () => method.send(...sendArgs),
  };
}
