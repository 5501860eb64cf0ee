import { Interface, getAddress } from "ethers";
import { BatchPayments__factory } from "@bindings/factories/contracts/BatchPayments__factory";
import { USDX__factory } from "@bindings/factories/contracts/USDX__factory";
import { formatTokenAmount } from "./amounts";
import { SAFE_DELEGATECALL, decodeMultiSend, multiSendSafeTx, type SafeTx } from "./safe";
import { TOKEN_SYMBOL } from "./token";
import { plural } from "./wording";

/**
 * A batch chunk paid from a Safe: one SafeTx that delegatecalls MultiSendCallOnly with exactly two
 * calls, USDX approve(BatchPayments, the chunk's total) then BatchPayments.pay(recipients, amounts,
 * reference). The dashboard builds it with `chunkSafeTx`; the server and the Approvals screen read
 * one back with `decodeChunkSafeTx`, which takes only that exact encoding.
 */

const USDX = new Interface(USDX__factory.abi);
const BATCH = new Interface(BatchPayments__factory.abi);

export interface ChunkPayment {
  recipients: string[];
  /** Base units. */
  amounts: bigint[];
  total: bigint;
  reference: string;
}

export interface BatchAddresses {
  token: string;
  batchPayments: string;
}

/** The two calls a chunk's proposal runs, in order. */
export function chunkCalls(where: BatchAddresses, chunk: Omit<ChunkPayment, "total"> & { total: bigint }) {
  return [
    { to: getAddress(where.token), data: USDX.encodeFunctionData("approve", [where.batchPayments, chunk.total]) },
    { to: getAddress(where.batchPayments), data: BATCH.encodeFunctionData("pay", [chunk.recipients, chunk.amounts, chunk.reference]) },
  ];
}

/** The SafeTx that pays a chunk from a Safe at `nonce`. */
export function chunkSafeTx(
  multiSendCallOnly: string,
  where: BatchAddresses,
  chunk: ChunkPayment,
  nonce: bigint | number | string,
): SafeTx {
  return multiSendSafeTx(multiSendCallOnly, chunkCalls(where, chunk), nonce);
}

/**
 * The chunk a SafeTx pays, or a sentence saying why it is not exactly a chunk's approve and pay
 * (the caller checks `to` is MultiSendCallOnly). The approve must be of the pay's own total.
 */
export function decodeChunkSafeTx(tx: Pick<SafeTx, "data" | "operation">, where: BatchAddresses): ChunkPayment | string {
  if (tx.operation !== SAFE_DELEGATECALL) return "it is not a delegatecall of MultiSendCallOnly";
  const calls = decodeMultiSend(tx.data);
  if (!calls) return "its data is not a MultiSend of plain calls without ether";
  if (calls.length !== 2) return `it packs ${plural(calls.length, "call")}, not exactly an approve and a pay`;
  const [approve, pay] = calls;
  if (approve.to !== getAddress(where.token) || pay.to !== getAddress(where.batchPayments))
    return "its calls must be USDX's approve, then BatchPayments' pay";
  const approved = exact(USDX, "approve", approve.data);
  const paid = exact(BATCH, "pay", pay.data);
  if (!approved || !paid) return "its calls must be USDX's approve, then BatchPayments' pay, encoded exactly as the contracts read them";
  const [spender, allowance] = approved as unknown as [string, bigint];
  const [recipients, amounts, reference] = paid as unknown as [string[], bigint[], string];
  if (getAddress(spender) !== getAddress(where.batchPayments)) return "its approve must let BatchPayments spend, no one else";
  const total = amounts.reduce((sum, a) => sum + a, 0n);
  if (allowance !== total) return `its approve is for ${usdx(allowance)}, not the pay's total of ${usdx(total)}`;
  return { recipients: recipients.map((r) => getAddress(r)), amounts: [...amounts], total, reference: reference.toLowerCase() };
}

/** 'Pay 3 recipients 6.50 USDX (a batch chunk)', or with the server's batch and chunk in place of the parenthesis. */
export function describeChunk(chunk: Pick<ChunkPayment, "recipients" | "total">, which = "a batch chunk"): string {
  return `Pay ${plural(chunk.recipients.length, "recipient")} ${usdx(chunk.total)} (${which})`;
}

const usdx = (value: bigint) => `${formatTokenAmount(value, 2)} ${TOKEN_SYMBOL}`;

function exact(abi: Interface, name: string, data: string) {
  try {
    const parsed = abi.parseTransaction({ data });
    if (!parsed || parsed.name !== name) return null;
    // Bytes after the arguments would still decode: only the exact encoding is taken.
    if (abi.encodeFunctionData(parsed.fragment, parsed.args).toLowerCase() !== data.toLowerCase()) return null;
    return [...parsed.args];
  } catch {
    return null;
  }
}
