/**
 * Gas limits a batch-payment chunk must fit. Osaka (EIP-7825) caps every transaction at 2^24 gas,
 * below a whole block's limit; Sepolia and Hardhat's default hardfork both enforce it.
 */
export const TRANSACTION_GAS_CAP = 16_777_216;

/** A block's gas limit as the batch-payment issue states it (Sepolia's is higher today). */
export const REFERENCE_BLOCK_GAS_LIMIT = 30_000_000;

/**
 * What a BatchPayments chunk costs, rounded up from bench/gas (npm run bench:gas): about 28,700 gas
 * for each recipient that holds no USDX yet (the worst case), and a fixed part for the call itself
 * plus the permit of payWithPermit (about 42,500 + 40,000; we keep a margin on both).
 */
export const BATCH_GAS_PER_RECIPIENT = 29_500;
export const BATCH_GAS_FIXED = 120_000;

/** The most recipients one chunk may hold so its transaction stays under `gasCap` (564 under Osaka's cap). */
export function maxRecipientsPerChunk(gasCap: number = TRANSACTION_GAS_CAP): number {
  return Math.max(1, Math.floor((gasCap - BATCH_GAS_FIXED) / BATCH_GAS_PER_RECIPIENT));
}

/**
 * The gas a chunk may use: the worst case the server planned the chunk with (every recipient new
 * to USDX), never above the per-transaction cap. Given up front (the dashboard's chunks, the
 * scenarios' crowd) because Hardhat's eth_estimateGas refuses any transaction using more than about
 * a third of the cap (it tries three times the gas used, above the cap), which a chunk of a few
 * hundred recipients does; unused gas is not charged.
 */
export const chunkGasLimit = (recipients: number): bigint =>
  BigInt(Math.min(TRANSACTION_GAS_CAP, BATCH_GAS_FIXED + recipients * BATCH_GAS_PER_RECIPIENT));

/**
 * What a chunk paid from a Safe needs beyond the chunk itself (bench/safe.ts, npm run bench:safe):
 * execTransaction's checks and signatures (about 40,000), the approve inside the MultiSend (about
 * 30,000), and the 1/64 of the gas a call keeps back from the call it makes (EIP-150: about 262,000
 * of the cap), with a margin.
 */
export const SAFE_CHUNK_GAS_OVERHEAD = 500_000;

/** The most recipients a Safe-paid chunk may hold (547 under Osaka's cap). */
export function maxRecipientsPerSafeChunk(gasCap: number = TRANSACTION_GAS_CAP): number {
  return maxRecipientsPerChunk(gasCap - SAFE_CHUNK_GAS_OVERHEAD);
}
