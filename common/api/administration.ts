import { z } from "zod";
import { AT_LEAST_ONE_TYPED, POSITIVE_TOKEN_AMOUNT_TYPED, parseTokenAmount } from "../amounts";
import { multiplierRefusal } from "../token";
import { endpoints } from "./endpoint";
import { Address, IsoDate, matching, ok, rowId, WHOLE, WHOLE_IN_WORDS, wholeNumber } from "./schemas";

/** POST /api/reward-multiplier (the request, audited; the change itself is the oracle's transaction) and GET /api/audit. */

export const AuditEntry = z
  .strictObject({
    id: z.number().int(),
    createdAt: IsoDate,
    uid: z.string(),
    email: z.string().nullable(),
    wallet: Address.nullable(),
    action: z.string().meta({ example: "reward-multiplier" }),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "AuditEntry" });
export type AuditEntry = z.infer<typeof AuditEntry>;

/** Why a multiplier value's text is refused (one POSITIVE_TOKEN_AMOUNT_TYPED does not match), as the dashboard's dialog says it. */
function valueProblem(text: string): string {
  try {
    parseTokenAmount(text);
  } catch (error) {
    return `Invalid value: ${(error as Error).message}. Please enter a valid positive number.`;
  }
  return "Invalid value: Please enter a valid positive number.";
}

/**
 * The multiplier the oracle means to set, or the step it means to add: the contract's own rule
 * (common/token.ts multiplierRefusal), so the audit log holds only changes the contract could make.
 */
const multiplierChange = z
  .object({
    value: matching(z.string().max(80, { abort: true }), POSITIVE_TOKEN_AMOUNT_TYPED, valueProblem, true)
      .transform((text) => parseTokenAmount(text))
      .meta({
        description:
          "A decimal above 0 with at most 18 decimals (1.0 is no reward); for 'set', at least 1.0. At most 2^256 - 1 in 18-decimal units: JSON Schema cannot compare a decimal's value with that, so the document says it here.",
        example: "1.05",
      }),
    operation: z.enum(["set", "add"], { message: "must be 'set' or 'add'" }),
  })
  .superRefine(({ value, operation }, ctx) => {
    const refusal = multiplierRefusal(operation, value);
    if (refusal === "too large")
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: "Invalid value: the number is larger than the contract can hold (2^256 - 1 in 18-decimal units).",
        params: WHOLE_IN_WORDS,
      });
    if (refusal === "below 1.0")
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: "Invalid value: the reward multiplier cannot be set below 1.0.",
        params: WHOLE,
      });
  })
  // 'set' never below 1.0, stated for the document: a value of at least 1 has a digit other than 0 before any point.
  .meta({
    allOf: [
      {
        if: { properties: { operation: { const: "set" } }, required: ["operation"] },
        then: { properties: { value: { pattern: AT_LEAST_ONE_TYPED.source } } },
      },
    ],
  });

export const administrationApi = endpoints({
  "POST /api/reward-multiplier": {
    tag: "Administration",
    summary: "Record a reward multiplier change",
    description:
      "Sent by the dashboard before the oracle's own transaction, for the audit log: the server does not change the multiplier (it holds no key that could). value is a decimal (1.0 is no reward); 'set' replaces the multiplier and may not go below 1.0, 'add' adds to it. Only the oracle's wallet session may record one: a wallet sign-in (SIWE) whose wallet holds ORACLE_ROLE, or owns a Safe that holds it; any other session (an email account proves no wallet) is a 403 and nothing is recorded. The entry's details name the wallet, and the Safe when it is through one.",
    access: "user",
    body: multiplierChange,
    status: 201,
    answer: ok({ id: z.number().int().meta({ description: "The audit entry's id." }) }),
    errors: [403, 503],
  },
  "GET /api/audit": {
    tag: "Administration",
    summary: "The audit log, newest first",
    access: "admin",
    query: z.object({
      limit: wholeNumber(1, 500).default(100).meta({ description: "Entries per page, 1 to 500; 100 when left out." }),
      before: rowId("an entry").optional().meta({ description: "The last entry id of the previous page." }),
    }),
    answer: ok({ entries: z.array(AuditEntry) }),
    errors: [503],
  },
});
