import { getAddress } from "ethers";
import { badRequest } from "../../lib/errors";
import type { SafeState } from "./reader";
import { SAFE_QUEUE_MAX } from "@common/api/safes";
import { ROLE_PERMITS } from "@common/roles";
import { SAFE_DELEGATECALL, plainSafeTx, recoverSafeSigner, type SafeTx } from "@common/safe";
import { decodeChunkSafeTx, type BatchAddresses, type ChunkPayment } from "@common/safeBatch";
import { PROPOSABLE_FUNCTIONS, decodeTokenCall, type DecodedTokenCall } from "@common/safeCalls";

/**
 * The rules a proposal's SafeTx must meet before it is stored, each refusal one sentence (a 400):
 * only what the dashboard proposes, a USDX write of a role the Safe holds or Safe's own rejection,
 * is ever kept. No chain call here; the caller has read the Safe, and simulates the call after.
 */

/** What a checked SafeTx asks the Safe to do. */
export type CheckedProposal =
  | { kind: "call"; call: DecodedTokenCall; tx: SafeTx }
  | { kind: "rejection"; tx: SafeTx }
  | { kind: "batch"; chunk: ChunkPayment; tx: SafeTx };

/** Where a batch chunk's proposal may go: the chain's MultiSendCallOnly (null when none is known), USDX and BatchPayments. */
export type BatchTargets = BatchAddresses & { multiSendCallOnly: string | null };

/** 'the Operations Safe', or 'the Safe 0x1234...abcd' for one the manifest does not name. */
export function safeWords(safe: Pick<SafeState, "address" | "name">): string {
  return safe.name.startsWith("0x") ? `the Safe ${safe.name}` : `the ${safe.name}`;
}

const capitalised = (text: string) => text[0].toUpperCase() + text.slice(1);

/**
 * Checks a proposed SafeTx against the Safe as read (`safe`), the token's address and the nonces of
 * the Safe's pending proposals; answers it in its stored form (addresses checksummed, data
 * lower-case, numbers as plain decimals), whose hash is the one the owners signed.
 */
export function checkSafeTx(input: SafeTx, safe: SafeState, batch: BatchTargets, pendingNonces: ReadonlySet<number>): CheckedProposal {
  const token = batch.token;
  // No ether, no refund, a call or a MultiSend's delegatecall: the declaration's (common/api/safes.ts SafeTxSchema).
  const nonce = BigInt(input.nonce);
  if (nonce < safe.nonce) throw badRequest(`Nonce ${nonce} is already used: the Safe's next nonce is ${safe.nonce}.`);
  const last = safe.nonce + BigInt(SAFE_QUEUE_MAX);
  if (nonce > last)
    throw badRequest(
      `Nonce ${nonce} is too far ahead: a proposal may wait at most ${SAFE_QUEUE_MAX} places past the Safe's next nonce (${safe.nonce}), so ${last} at most.`,
    );

  const to = getAddress(input.to.toLowerCase());
  if (input.operation === SAFE_DELEGATECALL) return checkChunkSafeTx(to, input.data, nonce, batch);
  const tx = plainSafeTx(to, input.data, nonce);
  if (to === safe.address) {
    // Safe's way to cancel: an empty call of itself, which only uses the nonce up.
    if (tx.data !== "0x")
      throw badRequest(
        `A proposal may call ${safeWords(safe)} itself only to reject another: with empty data (0x), at a pending proposal's nonce.`,
      );
    if (!pendingNonces.has(Number(nonce))) throw badRequest(`There is no pending proposal at nonce ${nonce} to reject.`);
    return { kind: "rejection", tx };
  }
  if (to !== getAddress(token))
    throw badRequest(`A proposal may only call USDX (${getAddress(token)}) or reject another proposal: ${to} is neither.`);
  const call = decodeTokenCall(tx.data);
  if (!call)
    throw badRequest(
      `The data is not a USDX write a Safe may propose (${Object.keys(PROPOSABLE_FUNCTIONS).join(", ")}), encoded exactly as the contract reads it.`,
    );
  const role = PROPOSABLE_FUNCTIONS[call.name];
  if (!safe.roles.includes(role))
    throw badRequest(`${capitalised(safeWords(safe))} does not hold ${role}, so it cannot ${ROLE_PERMITS[role]}.`);
  return { kind: "call", call, tx };
}

/**
 * A delegatecall runs another contract's code as the Safe, with the Safe's storage and tokens: the
 * only one taken is MultiSendCallOnly (which can only call onward) running exactly one batch chunk's
 * approve and pay. Whether that chunk is one of a job this Safe pays is asked after (batchChunks.ts).
 */
function checkChunkSafeTx(to: string, data: string, nonce: bigint, batch: BatchTargets): CheckedProposal {
  if (!batch.multiSendCallOnly)
    throw badRequest(
      "A proposal must be a plain call (operation 0) on this chain: no MultiSendCallOnly is known here to pay a batch from a Safe.",
    );
  if (to !== getAddress(batch.multiSendCallOnly))
    throw badRequest(
      `A delegatecall (operation 1) would run ${to}'s code as the Safe: the only contract a proposal may delegatecall is MultiSendCallOnly (${getAddress(batch.multiSendCallOnly)}), to pay a batch chunk.`,
    );
  const tx = { ...plainSafeTx(to, data, nonce), operation: SAFE_DELEGATECALL };
  const chunk = decodeChunkSafeTx(tx, batch);
  if (typeof chunk === "string")
    throw badRequest(`A MultiSend proposal must pay exactly one batch chunk, and this one does not: ${chunk}.`);
  return { kind: "batch", chunk, tx };
}

/**
 * The current owner whose EIP-712 signature `signature` is over `hash`. A signature of anything
 * else (another Safe's transaction, another chain's, other fields) recovers some other address,
 * which is named, so the owner can see it was not theirs for this Safe.
 */
export function ownerOf(hash: string, signature: string, safe: SafeState, chainId: number): string {
  const signer = recoverSafeSigner(hash, signature);
  if (!signer)
    throw badRequest(
      "The signature is not an owner's EIP-712 signature: it must be 65 bytes, with v 27 or 28 and s in the lower half of the curve.",
    );
  if (!safe.owners.includes(signer))
    throw badRequest(
      `The signature recovers ${signer}, which is not an owner of ${safeWords(safe)} on this chain (chain ${chainId}): ` +
        "a signature made for another Safe, another chain or other fields recovers a different address.",
    );
  return signer;
}
