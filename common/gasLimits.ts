/**
 * Gas limits a batch-payment chunk must fit. Osaka (EIP-7825) caps every transaction at 2^24 gas,
 * below a whole block's limit; Sepolia and Hardhat's default hardfork both enforce it.
 */
export const TRANSACTION_GAS_CAP = 16_777_216;

/** A block's gas limit as the batch-payment issue states it (Sepolia's is higher today). */
export const REFERENCE_BLOCK_GAS_LIMIT = 30_000_000;
