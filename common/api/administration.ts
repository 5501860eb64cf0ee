import { z } from "zod";
import { endpoints } from "./endpoint";
import { Address, IsoDate, ok, rowId, wholeNumber } from "./schemas";

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

export const administrationApi = endpoints({
  "POST /api/reward-multiplier": {
    tag: "Administration",
    summary: "Record a reward multiplier change",
    description:
      "Sent by the dashboard before the oracle's own transaction, for the audit log: the server does not change the multiplier (it holds no key that could). value is a decimal (1.0 is no reward); 'set' replaces the multiplier and may not go below 1.0, 'add' adds to it. Only the oracle's wallet session may record one: a wallet sign-in (SIWE) whose wallet holds ORACLE_ROLE, or owns a Safe that holds it; any other session (an email account proves no wallet) is a 403 and nothing is recorded. The entry's details name the wallet, and the Safe when it is through one.",
    access: "user",
    body: z.object({
      value: z.string().max(80).meta({ example: "1.05" }),
      operation: z.enum(["set", "add"], { message: "must be 'set' or 'add'" }),
    }),
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
