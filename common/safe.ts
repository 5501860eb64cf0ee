import { Interface, Signature, TypedDataEncoder, ZeroAddress, getAddress, recoverAddress, solidityPacked } from "ethers";

/**
 * Safe (v1.4.1) transactions, the way the Safe contract itself defines them: the SafeTx typed data
 * (EIP-712, domain = chain id + the Safe's address), its hash, and the packed signatures
 * `execTransaction` takes. Built on ethers' typed data rather than Safe's protocol-kit: it is the few
 * lines below instead of a second Ethereum library in the dashboard's bundle, and a test compares
 * the hash with the contract's own `getTransactionHash` on chain (test/safe.test.ts, and server/test/safes.test.ts through the API).
 */

/** The Safe version the seed deploys and the dashboard speaks to (VERSION() of the singleton). */
export const SAFE_VERSION = "1.4.1";

/** Safe's own words for what the operation field means: a plain call (never a delegatecall here). */
export const SAFE_CALL = 0;

/** EIP-712 types of a SafeTx, field for field as Safe.sol's SAFE_TX_TYPEHASH. */
export const SAFE_TX_TYPES = {
  SafeTx: [
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "data", type: "bytes" },
    { name: "operation", type: "uint8" },
    { name: "safeTxGas", type: "uint256" },
    { name: "baseGas", type: "uint256" },
    { name: "gasPrice", type: "uint256" },
    { name: "gasToken", type: "address" },
    { name: "refundReceiver", type: "address" },
    { name: "nonce", type: "uint256" },
  ],
} as const;

/** A SafeTx as JSON carries it: numbers as decimal strings, addresses checksummed. */
export interface SafeTx {
  to: string;
  value: string;
  data: string;
  operation: number;
  safeTxGas: string;
  baseGas: string;
  gasPrice: string;
  gasToken: string;
  refundReceiver: string;
  nonce: string;
}

/**
 * The only SafeTx the dashboard proposes: a call of `to` with `data`, no ether, no refund (an owner
 * pays the execution's gas). Gas fields 0 mean "all the gas the executor gives", which is what the
 * Safe web app proposes too.
 */
export function plainSafeTx(to: string, data: string, nonce: bigint | number | string): SafeTx {
  return {
    to: getAddress(to),
    value: "0",
    data: data.toLowerCase(),
    operation: SAFE_CALL,
    safeTxGas: "0",
    baseGas: "0",
    gasPrice: "0",
    gasToken: ZeroAddress,
    refundReceiver: ZeroAddress,
    nonce: BigInt(nonce).toString(),
  };
}

/** Safe's operation for a batch of calls: a delegatecall of MultiSendCallOnly, which can only call (never delegatecall) onward. */
export const SAFE_DELEGATECALL = 1;

/** MultiSendCallOnly v1.4.1: runs each packed call in order from the Safe, all or nothing. */
export const MULTISEND_INTERFACE = new Interface(["function multiSend(bytes transactions) payable"]);

/**
 * The SafeTx that makes the Safe run `calls` in one transaction (a batch chunk's approve and pay):
 * a delegatecall of MultiSendCallOnly with the calls packed as it reads them (operation 0, to,
 * value 0, data length, data). The server accepts a delegatecall only to that contract.
 */
export function multiSendSafeTx(
  multiSendCallOnly: string,
  calls: readonly { to: string; data: string }[],
  nonce: bigint | number | string,
): SafeTx {
  const packed = calls.map((c) =>
    solidityPacked(["uint8", "address", "uint256", "uint256", "bytes"], [SAFE_CALL, c.to, 0n, (c.data.length - 2) / 2, c.data]),
  );
  const data = MULTISEND_INTERFACE.encodeFunctionData("multiSend", ["0x" + packed.map((p) => p.slice(2)).join("")]);
  return { ...plainSafeTx(multiSendCallOnly, data, nonce), operation: SAFE_DELEGATECALL };
}

/** The calls inside a multiSend's data, or null when it is not one (or packs a delegatecall or ether). */
export function decodeMultiSend(data: string): { to: string; data: string }[] | null {
  let bytes: string;
  try {
    const parsed = MULTISEND_INTERFACE.parseTransaction({ data });
    if (!parsed) return null;
    bytes = (parsed.args[0] as string).slice(2);
  } catch {
    return null;
  }
  const calls: { to: string; data: string }[] = [];
  // Each call: 1 byte operation, 20 bytes to, 32 bytes value, 32 bytes length, then the data (hex: 2 characters a byte).
  for (let at = 0; at < bytes.length;) {
    if (bytes.length - at < 2 * 85) return null;
    const operation = parseInt(bytes.slice(at, at + 2), 16);
    const to = getAddress("0x" + bytes.slice(at + 2, at + 42));
    const value = BigInt("0x" + bytes.slice(at + 42, at + 106));
    const length = Number(BigInt("0x" + bytes.slice(at + 106, at + 170)));
    const end = at + 170 + 2 * length;
    if (operation !== SAFE_CALL || value !== 0n || end > bytes.length) return null;
    calls.push({ to, data: "0x" + bytes.slice(at + 170, end) });
    at = end;
  }
  return calls.length > 0 ? calls : null;
}

/** Safe's rejection: an empty call of the Safe itself at the same nonce; executing it uses the nonce up. */
export function rejectionSafeTx(safe: string, nonce: bigint | number | string): SafeTx {
  return plainSafeTx(safe, "0x", nonce);
}

/** The typed data's domain: Safe v1.3+ signs over the chain id and the Safe's address (no name, no version). */
export function safeDomain(chainId: number | bigint, safe: string) {
  return { chainId: BigInt(chainId), verifyingContract: getAddress(safe) };
}

/** What `eth_signTypedData_v4` is given: the domain, the types with EIP712Domain, and the message. */
export function safeTypedData(chainId: number | bigint, safe: string, tx: SafeTx) {
  return {
    domain: safeDomain(chainId, safe),
    types: SAFE_TX_TYPES,
    primaryType: "SafeTx" as const,
    message: tx,
  };
}

/** The hash owners sign and the Safe checks (equal to the contract's getTransactionHash). */
export function safeTxHash(chainId: number | bigint, safe: string, tx: SafeTx): string {
  return TypedDataEncoder.hash(safeDomain(chainId, safe), mutableTypes(), tx);
}

/**
 * The owner whose key made `signature` over `hash`, or null for a signature that is not a 65-byte
 * ECDSA signature (v 27 or 28, the kind eth_signTypedData gives; Safe reads a higher v as eth_sign
 * and a lower one as a contract signature or an approved hash, which the dashboard does not take).
 */
export function recoverSafeSigner(hash: string, signature: string): string | null {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return null;
  const v = parseInt(signature.slice(130, 132), 16);
  if (v !== 27 && v !== 28) return null;
  try {
    // Signature.from refuses an s in the upper half of the curve (malleable): one key, one signature.
    return getAddress(recoverAddress(hash, Signature.from(signature)));
  } catch {
    return null;
  }
}

/** The `signatures` argument of execTransaction: each owner's 65 bytes, sorted by owner address ascending, as Safe requires. */
export function packSignatures(signatures: readonly { owner: string; signature: string }[]): string {
  const sorted = [...signatures].sort((a, b) => (BigInt(a.owner) < BigInt(b.owner) ? -1 : BigInt(a.owner) > BigInt(b.owner) ? 1 : 0));
  return "0x" + sorted.map((s) => s.signature.slice(2).toLowerCase()).join("");
}

/** The parts of Safe's ABI the dashboard and the server call or follow. */
export const SAFE_ABI = [
  "function VERSION() view returns (string)",
  "function getOwners() view returns (address[])",
  "function getThreshold() view returns (uint256)",
  "function nonce() view returns (uint256)",
  "function isOwner(address owner) view returns (bool)",
  "function getTransactionHash(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, uint256 _nonce) view returns (bytes32)",
  "function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool success)",
  // Owner management: callable only by the Safe itself (a Safe transaction), or on a fork by the impersonated Safe.
  "function addOwnerWithThreshold(address owner, uint256 _threshold)",
  "function removeOwner(address prevOwner, address owner, uint256 _threshold)",
  "function changeThreshold(uint256 _threshold)",
  "event ExecutionSuccess(bytes32 indexed txHash, uint256 payment)",
  "event ExecutionFailure(bytes32 indexed txHash, uint256 payment)",
  "event AddedOwner(address indexed owner)",
  "event RemovedOwner(address indexed owner)",
  "event ChangedThreshold(uint256 threshold)",
] as const;

export const SAFE_INTERFACE = new Interface(SAFE_ABI);

/** execTransaction's arguments for `tx` with the owners' signatures. */
export function execTransactionArgs(tx: SafeTx, signatures: string) {
  return [
    tx.to,
    tx.value,
    tx.data,
    tx.operation,
    tx.safeTxGas,
    tx.baseGas,
    tx.gasPrice,
    tx.gasToken,
    tx.refundReceiver,
    signatures,
  ] as const;
}

/**
 * Safe reverts with a string code ('GS026'); these are the ones an owner of a dashboard proposal
 * can meet, in words (Safe's own list: docs/error_codes.md of safe-smart-account v1.4.1).
 */
export const SAFE_ERROR_WORDS: Readonly<Record<string, string>> = {
  GS001: "The Safe's threshold has not been set up.",
  GS010: "The Safe was not given enough gas to run the call.",
  GS013: "The call inside the Safe transaction failed, so the Safe refused to use up its nonce.",
  GS020: "The signatures are too short for the Safe's threshold.",
  GS021: "A signature points outside the signatures' data.",
  GS022: "A contract signature is too short.",
  GS023: "A contract signature is out of bounds.",
  GS024: "A contract signature does not verify.",
  GS025: "A signature approves a hash the signer has not approved on chain.",
  GS026: "A signature is not from a current owner of the Safe, or signs another transaction (the Safe's nonce may have moved on).",
};

/** A Safe error code in a revert's reason string ('GS026'), in words; null when the reason is not one. */
export function describeSafeError(reason: string | null | undefined): string | null {
  const code = reason?.match(/GS\d{3}/)?.[0];
  return code ? (SAFE_ERROR_WORDS[code] ?? `The Safe refused the transaction (${code}).`) : null;
}

// ethers' TypedDataEncoder wants mutable arrays; SAFE_TX_TYPES is declared `as const` for its readers.
function mutableTypes(): Record<string, { name: string; type: string }[]> {
  return { SafeTx: SAFE_TX_TYPES.SafeTx.map((f) => ({ ...f })) };
}
