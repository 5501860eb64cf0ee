import { ZeroAddress } from "ethers";
import { z } from "zod";
import { endpoints } from "./endpoint";
import { Address, AddressInput, Bytes32, IsoDate, TxHash, ok, WHOLE } from "./schemas";

/**
 * /api/safes: admin writes proposed to a Safe that holds a USDX role, the owners' approvals, and what
 * became of each proposal. The server stores proposals and signatures only; it holds no key, and an
 * owner's wallet executes a proposal once enough owners have signed (docs/architecture/safes.md).
 */

/** How far past the Safe's nonce a proposal may be queued: enough for a day's work, not a flood. */
export const SAFE_QUEUE_MAX = 20;

/**
 * A SafeTx's data, at most: a batch chunk of the most recipients a Safe chunk holds (547, common/
 * gasLimits.ts) packs its approve and pay into about 35,500 bytes; an admin write is a few hundred.
 */
export const SAFE_TX_DATA_MAX_BYTES = 40_000;

/** Proposals answered per Safe: every pending one, and this many of the newest that have ended. */
export const SAFE_ENDED_SHOWN = 20;

const Hex = z.string().meta({ description: "Bytes as 0x and hex characters." });

const Decimal = z.string().meta({ description: "A whole number as a decimal string." });

const WHOLE_NUMBER = /^\d{1,78}$/;
const ZEROS = /^0+$/;
const NO_REFUND = "a proposal pays no refund (the owner who executes it pays the gas)";

/** A number a proposal leaves at 0 (no ether, no refund), refused in `sentence(value)` otherwise. */
const zero = (sentence: (value: bigint) => string) =>
  z
    .string()
    .regex(WHOLE_NUMBER, "must be a whole number")
    .refine((text) => !WHOLE_NUMBER.test(text) || ZEROS.test(text), {
      error: (issue) => sentence(BigInt(String(issue.input))),
      params: WHOLE,
    })
    .meta({ allOf: [{ pattern: ZEROS.source }], description: "0." });
/** An address a proposal leaves as the zero address (no refund in a token, to no one). */
const zeroAddress = (field: string) =>
  AddressInput.refine((address) => address === ZeroAddress, {
    message: `${field} must be the zero address: ${NO_REFUND}.`,
    params: WHOLE,
  }).meta({ const: ZeroAddress, description: "The zero address." });

/**
 * A SafeTx as the owners sign it (EIP-712, domain: chain id and the Safe's address). What a proposal
 * may never carry (ether, a refund) is declared here; what depends on the Safe (its nonce, roles,
 * the call) is the service's (server/src/services/safes/checks.ts).
 */
export const SafeTxSchema = z
  .strictObject({
    to: AddressInput,
    value: zero((value) => `A proposal sends no ether: value must be 0, not ${value}.`),
    data: z
      .string()
      .max(2 + 2 * SAFE_TX_DATA_MAX_BYTES, `must be at most ${SAFE_TX_DATA_MAX_BYTES.toLocaleString("en-US")} bytes`)
      .regex(/^0x([0-9a-fA-F]{2})*$/, "must be 0x followed by whole bytes in hex"),
    operation: z.number().int().min(0).max(1).meta({ description: "0, a call; or 1, a batch chunk's delegatecall of MultiSendCallOnly." }),
    safeTxGas: zero((value) => `safeTxGas must be 0, not ${value}: ${NO_REFUND}.`),
    baseGas: zero((value) => `baseGas must be 0, not ${value}: ${NO_REFUND}.`),
    gasPrice: zero((value) => `gasPrice must be 0, not ${value}: ${NO_REFUND}.`),
    gasToken: zeroAddress("gasToken"),
    refundReceiver: zeroAddress("refundReceiver"),
    nonce: z.string().regex(/^\d{1,20}$/, "must be a whole number"),
  })
  .meta({ id: "SafeTx" });

const Signature = z
  .string()
  .regex(/^0x[0-9a-fA-F]{130}$/, "must be a 65-byte signature (0x followed by 130 hex characters)")
  .meta({ description: "An owner's EIP-712 signature of the SafeTx (eth_signTypedData_v4): 65 bytes, v 27 or 28." });

/** A Safe that holds at least one USDX role, as read at the latest block. */
export const SafeInfo = z
  .strictObject({
    address: Address,
    name: z
      .string()
      .meta({ description: "The deployment's name for it ('Operations Safe'), else its short address.", example: "Operations Safe" }),
    owners: z.array(Address),
    threshold: z.number().int(),
    nonce: Decimal.meta({ description: "The Safe's next nonce: the next proposal to execute uses it." }),
    roles: z.array(z.string()).meta({ description: "The USDX roles it holds.", example: ["MINTER_ROLE", "ORACLE_ROLE"] }),
    nextNonce: Decimal.meta({ description: "The nonce a new proposal gets: past the Safe's nonce and every pending proposal." }),
  })
  .meta({ id: "SafeInfo" });
export type SafeInfo = z.infer<typeof SafeInfo>;

export const SafeApproval = z.strictObject({
  owner: Address,
  signature: Hex,
  approvedAt: IsoDate,
  current: z.boolean().meta({ description: "Whether the signer is still an owner at the latest block: only current owners count." }),
});

export const SafeProposalState = z.enum(["pending", "executed", "failed", "replaced"]).meta({
  description:
    "pending: waiting for approvals or execution; executed: the Safe ran it; failed: the Safe used its nonce but the call reverted; replaced: another proposal used its nonce.",
});

export const SafeProposal = z
  .strictObject({
    safe: Address,
    safeTxHash: Bytes32,
    tx: SafeTxSchema,
    description: z.string().meta({ example: "Mint 250.00 USDX to 0x14dC...9955" }),
    proposer: Address,
    proposedAt: IsoDate,
    state: SafeProposalState,
    approvals: z.array(SafeApproval),
    confirmations: z.number().int().meta({ description: "Approvals by current owners." }),
    threshold: z.number().int(),
    executedBy: TxHash.nullable().meta({
      description:
        "The transaction that executed it (executed or failed), found in the Safe's logs; null while pending, and for a replaced one.",
    }),
    changes: z.array(z.string()).meta({
      description:
        "Pending only: what changed in the Safe since it was proposed, in words (a threshold changed, an approving owner removed); empty when nothing did.",
      example: ["The threshold changed from 2 to 3 after this was proposed."],
    }),
  })
  .meta({ id: "SafeProposal" });
export type SafeProposal = z.infer<typeof SafeProposal>;

const safePath = z.object({
  safe: AddressInput,
});
const proposalPath = safePath.extend({
  hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a proposal's SafeTx hash (0x followed by 64 hex characters)"),
});

export const safesApi = endpoints({
  "GET /api/safes": {
    tag: "Safes",
    summary: "The Safes that hold USDX roles",
    description:
      "Every role holder that is a Safe, with its owners, threshold and nonce as read once the chain's head last moved (shared by every caller). A wallet that owns one of them can propose the writes of the roles it holds.",
    access: "user",
    answer: ok({ safes: z.array(SafeInfo) }),
    errors: [503],
  },
  "GET /api/safes/:safe/proposals": {
    tag: "Safes",
    summary: "A Safe's proposals",
    description: `Every pending proposal, by nonce, and the ${SAFE_ENDED_SHOWN} newest that ended. Approvals are counted against the owners and threshold as read once the chain's head last moved (shared by every caller). An address that is no Safe GET /api/safes lists counts against the user's USER_SAFE_LOOKUPS_PER_MINUTE.`,
    access: "user",
    params: safePath,
    answer: ok({ safe: SafeInfo, proposals: z.array(SafeProposal) }),
    errors: [404, 429, 503],
  },
  "POST /api/safes/:safe/proposals": {
    tag: "Safes",
    summary: "Propose a write to a Safe",
    description:
      "Stores a SafeTx the proposer signed. It must call USDX with a write of a role the Safe holds (or be Safe's rejection: an empty call of the Safe at a pending proposal's nonce), " +
      `at a nonce from the Safe's own up to ${SAFE_QUEUE_MAX} past it, with no ether, no delegatecall and no refund. ` +
      "The call is simulated as the Safe at the latest block and refused with the contract's error in words; the signature must recover a current owner.",
    access: "user",
    params: safePath,
    body: z.object({ tx: SafeTxSchema, signature: Signature }),
    status: 201,
    answer: ok({ proposal: SafeProposal }),
    errors: [404, 409, 429, 503],
  },
  "POST /api/safes/:safe/proposals/:hash/approvals": {
    tag: "Safes",
    summary: "Approve a proposal",
    description:
      "Adds an owner's signature of the proposal's SafeTx hash. A signature that does not recover a current owner of this Safe (another Safe's, another chain's, a removed owner's) is a 400; " +
      "an owner who already approved, or a proposal that has ended, is a 409.",
    access: "user",
    params: proposalPath,
    body: z.object({ signature: Signature }),
    answer: ok({ proposal: SafeProposal }),
    errors: [404, 409, 429, 503],
  },
});
