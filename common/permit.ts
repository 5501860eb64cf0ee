import type { TypedDataDomain } from "ethers";
import { TOKEN_NAME } from "./token";

/**
 * EIP-2612 permits for USDX: what a holder signs so a spender (the BatchPayments contract, when
 * paying a CSV) may move its tokens without an approval transaction.
 */
export const PERMIT_TYPES = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
};

/** The EIP-712 domain USDX signs under: its name, version 1, the chain and the proxy's address. */
export function permitDomain(chainId: bigint | number, verifyingContract: string, name: string = TOKEN_NAME): TypedDataDomain {
  return { name, version: "1", chainId, verifyingContract };
}

export interface PermitMessage {
  owner: string;
  spender: string;
  value: bigint;
  nonce: bigint;
  deadline: bigint;
}
