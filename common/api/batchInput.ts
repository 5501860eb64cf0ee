import { z } from "zod";
import { ADDRESS_TYPED, parseAddress } from "../addresses";
import { checkRecipient, invalidRecipientsSentence, RECIPIENT_TYPED, type Recipient, statedByPattern } from "../recipients";
import { MAX_UINT256 } from "../token";
import { checksumHolds, WHOLE, WHOLE_IN_WORDS } from "./schemas";

/**
 * What a batch to start carries (POST /api/batch/execute, common/api/batch.ts), and a job's id in
 * a path: every recipient by the one rule, so the OpenAPI document states it too.
 */

// Strings in a recipient stay short: an address is 42 characters, an amount at most ~80 digits.
const text = (max: number) => z.string({ message: "must be a string" }).max(max, `is longer than ${max} characters`);

type RecipientInput = { name?: string; address: string; amount: string };

/**
 * Every recipient by the one rule (common/recipients.ts), as the batch to start: the checked
 * recipients, or the refusal the person reads (the first five problems, numbered from 1). An issue
 * whose every problem is beyond a pattern (a checksum, an amount past uint256) is stated in words.
 */
function checkedRecipients(items: RecipientInput[], ctx: z.core.$RefinementCtx): Recipient[] | typeof z.NEVER {
  const refuse = (message: string, params: Record<string, boolean>) => {
    ctx.addIssue({ code: "custom", path: ["recipients"], message, params });
    return z.NEVER;
  };
  if (items.length === 0) return refuse("No valid recipients found: the batch has no recipients.", WHOLE);
  const recipients: Recipient[] = [];
  const problems: string[] = [];
  let stated = false;
  items.forEach((item, i) => {
    const check = checkRecipient(item);
    if (check.ok) return recipients.push(check.recipient);
    for (const problem of check.problems) {
      problems.push(`recipient ${i + 1}: ${problem.reason} (${problem.detail.replace(/\.$/, "")})`);
      stated ||= statedByPattern(problem, item);
    }
  });
  if (problems.length > 0) return refuse(invalidRecipientsSentence(problems), stated ? WHOLE : WHOLE_IN_WORDS);
  // Each amount fits a uint256; their sum must too, or no chunk's transfers could ever be paid.
  if (recipients.reduce((sum, r) => sum + r.amountRaw, 0n) > MAX_UINT256)
    return refuse(
      "The batch's total is larger than any USDX amount can be (2^256 - 1 base units), so nothing was started.",
      WHOLE_IN_WORDS,
    );
  return recipients;
}

// The paying wallet, in parseAddress's words after its field's name.
const payerProblem = (input: unknown) => {
  try {
    parseAddress(String(input));
    return "payer: must be 0x followed by 40 hex characters.";
  } catch (error) {
    return `payer: ${(error as Error).message}.`;
  }
};
const payer = text(100)
  .refine((address) => ADDRESS_TYPED.test(address), { error: (issue) => payerProblem(issue.input), params: WHOLE })
  .refine((address) => !ADDRESS_TYPED.test(address) || checksumHolds(address), {
    error: (issue) => payerProblem(issue.input),
    params: WHOLE_IN_WORDS,
  })
  .meta({
    pattern: ADDRESS_TYPED.source,
    description:
      "The wallet that will pay: its balance, blocklist entry and the token's pause are checked first. 0x and 40 hex characters; mixed case must be a right EIP-55 checksum.",
    example: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  })
  .optional();

const recipientAddress = text(100).meta({
  pattern: RECIPIENT_TYPED.address.source,
  description: "0x and 40 hex characters; mixed case must be a right EIP-55 checksum (a keccak-256: JSON Schema cannot state it).",
  example: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
});
const recipientAmount = (description: string, example: string) =>
  text(100).meta({
    pattern: RECIPIENT_TYPED.amount.source,
    description: `${description} USDX above 0 with at most 18 decimals, and at most 2^256 - 1 base units (which JSON Schema cannot compare: stated here).`,
    example,
  });
const atLeastOne = { minItems: 1, description: "At least one: the batch's total must fit 2^256 - 1 base units too (stated here)." };

/*
 * Two forms (the first that fits is taken); the recipients are checked once the form is known, by
 * the one rule, and handed to the service checked (a union's branch that failed a rule of its own
 * would read as neither form).
 */
export const executeBody = z
  .union(
    [
      z.object({
        recipients: z
          .array(
            z.object({
              name: text(200)
                .meta({
                  pattern: RECIPIENT_TYPED.name.source,
                  description: "At most 100 characters once trimmed, with no control or text-direction characters; may be empty.",
                  example: "Alice",
                })
                .optional(),
              address: recipientAddress,
              amount: recipientAmount("What this recipient receives:", "1.5"),
            }),
            { message: "must be a list" },
          )
          .meta(atLeastOne),
        payer,
      }),
      // The spec's form: a list of addresses that each receive `amount`.
      z.object({
        recipients: z.array(recipientAddress, { message: "must be a list" }).meta(atLeastOne),
        amount: recipientAmount("What each address receives:", "25"),
        payer,
      }),
    ],
    { message: "must be {recipients: [{name, address, amount}]} or {recipients: [address], amount}" },
  )
  .transform((body, ctx) => ({
    recipients: checkedRecipients(
      "amount" in body ? body.recipients.map((address) => ({ address, amount: body.amount })) : body.recipients,
      ctx,
    ),
    payer: body.payer,
  }))
  .meta({
    description:
      "Each recipient with its own amount, or a list of addresses that each receive the same `amount`. Amounts are decimal USDX strings ('12.5').",
  });

export const jobPath = z.object({
  id: z
    .uuid({ message: "must be a batch job id" })
    .meta({ description: "The job's id, as execute answered it.", example: "5b0e8c5e-4c1a-4d5e-9f0a-2b7c3d4e5f60" }),
});
