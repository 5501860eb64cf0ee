import { z } from "zod";
import {
  ALERT_HEADERS,
  ALERT_KIND_INFO,
  ALERT_KINDS,
  ALERT_LIMITS,
  DELIVERY_STATUSES,
  SAFE_ALERT_STEPS,
  WEBHOOK_URL_TYPED,
  webhookUrlProblem,
} from "../alerts";
import { parseTokenAmount, TOKEN_AMOUNT_OR_BLANK_TYPED } from "../amounts";
import { STEP_BOUND_OR_BLANK_TYPED } from "../multiplierStep";
import { MAX_UINT256 } from "../token";
import { endpoints } from "./endpoint";
import { BlockNumber, Bytes32, IsoDate, TokenAmount, TxHash, ok, rowId, WHOLE, WHOLE_IN_WORDS, wholeNumber } from "./schemas";

/**
 * /api/alerts: operators' alert rules on the event index, each delivered to a webhook as signed
 * JSON, and the log of every delivery and attempt. For the server's admins only.
 */

export const AlertKind = z.enum(ALERT_KINDS).meta({
  description:
    "mint / burn: a Transfer from / to the zero address of more than the threshold; role: RoleGranted or RoleRevoked; pause: Paused or Unpaused; upgrade: Upgraded; multiplier: RewardMultiplier, or only a change of more than the threshold from the multiplier before, and/or of more than stepPercent of every balance; blocklist: AccountBlocked or AccountUnblocked; safe: a Safe proposal created, approved by an owner, or executed (its call succeeded or failed), as the server stores it.",
});

export const AlertRule = z
  .strictObject({
    id: z.number().int(),
    kind: AlertKind,
    threshold: TokenAmount.nullable().meta({
      description:
        "mint and burn: alert on amounts of more than this many USDX; multiplier: on a change of more than this step (0.01 is one percentage point); null: every such event.",
    }),
    stepPercent: z.string().nullable().meta({
      description:
        "multiplier only: alert on a change that moves every balance by more than this percentage, up or down (the change from m0 to m1 is (m1 / m0 - 1) x 100 %); null: any step. With a threshold too, a change must pass both.",
      example: "1",
    }),
    webhookUrl: z.string().meta({ example: "https://hooks.example.com/usdx" }),
    enabled: z.boolean(),
    secretHint: z.string().meta({
      description:
        "The secret's last four characters, to tell which one a receiver holds. The secret itself is answered only when it is made (on creation and rotation).",
      example: "…9f3a",
    }),
    createdBy: z
      .string()
      .meta({ description: "The uid of the admin who made the rule.", example: "wallet:0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266" }),
    createdAt: IsoDate,
  })
  .meta({ id: "AlertRule" });
export type AlertRule = z.infer<typeof AlertRule>;

export const AlertAttempt = z
  .strictObject({
    attemptedAt: IsoDate,
    statusCode: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The receiver's HTTP status, or null when there was no answer (see error)." }),
    error: z.string().nullable().meta({
      description: "Why the attempt got no answer (refused address, timeout, connection refused), or why its answer is not a success.",
      example: "timed out after 5000 ms",
    }),
    excerpt: z
      .string()
      .nullable()
      .meta({ description: `The start of the receiver's answer, at most ${ALERT_LIMITS.excerptChars} characters.` }),
    durationMs: z.number().int(),
  })
  .meta({ id: "AlertAttempt" });
export type AlertAttempt = z.infer<typeof AlertAttempt>;

export const AlertDelivery = z
  .strictObject({
    id: z.number().int(),
    deliveryId: z.string().meta({
      description: `The id the receiver sees in ${ALERT_HEADERS.delivery} and the body: the same on every attempt.`,
      example: "6f1c2a0e-4b7d-4f7e-9d1a-3c5b8e2f0a91",
    }),
    ruleId: z.number().int(),
    kind: AlertKind,
    test: z.boolean().meta({ description: "A 'Send test' delivery (no event; one attempt)." }),
    event: z.strictObject({ name: z.string(), blockNumber: BlockNumber, logIndex: z.number().int(), transactionHash: TxHash }).nullable(),
    proposal: z
      .strictObject({ step: z.enum(SAFE_ALERT_STEPS), safeTxHash: Bytes32, summary: z.string() })
      .nullable()
      .meta({ description: "A 'safe' rule's delivery: the proposal's step and what the body says of it; null otherwise." }),
    status: z.enum(DELIVERY_STATUSES).meta({
      description:
        "pending: waiting for its next attempt; delivered: answered 2xx; failed: out of attempts; cancelled: the event left the chain, or the rule was turned off.",
    }),
    attemptCount: z.number().int(),
    nextAttemptAt: IsoDate.nullable(),
    createdAt: IsoDate,
    deliveredAt: IsoDate.nullable(),
    note: z.string().nullable().meta({ description: "Why a delivery failed or was cancelled." }),
    attempts: z.array(AlertAttempt).meta({ description: "Each attempt, oldest first." }),
  })
  .meta({ id: "AlertDelivery" });
export type AlertDelivery = z.infer<typeof AlertDelivery>;

const rulePath = z.object({ id: rowId("a rule") });
const SECRET = z.string().meta({
  description: `The rule's HMAC-SHA256 key: each delivery's ${ALERT_HEADERS.signature} is sha256=<hex HMAC of the raw body>. Shown only in this answer: copy it now.`,
  example: "whsec_3d6f0e2b9c1a47d58e0f6b2c9a1d4e7f3b8c5a2e9d0f1b6c",
});

const TAG = "Alerts";

// ---------------------------------------------------------------- a new rule's body

const BLANK_OR_NULL = { anyOf: [{ type: "null" }, { type: "string", pattern: "^\\s*$" }] };
const KINDS_WITHOUT_THRESHOLD = ALERT_KINDS.filter((kind) => !ALERT_KIND_INFO[kind].threshold);
const KINDS_WITHOUT_STEP = ALERT_KINDS.filter((kind) => !ALERT_KIND_INFO[kind].stepPercent);

const webhookUrl = z
  .string({ message: "a webhook URL is needed" })
  .max(ALERT_LIMITS.urlLength, { message: `must be at most ${ALERT_LIMITS.urlLength} characters`, abort: true })
  .refine((text) => WEBHOOK_URL_TYPED.test(text), {
    error: (issue) => `Invalid webhook URL: ${webhookUrlProblem(String(issue.input))}`,
    params: WHOLE,
    abort: true,
  })
  // What a URL parser refuses beyond the pattern (a host no host may be): JSON Schema has no URL parser of WHATWG's kind.
  .refine((text) => webhookUrlProblem(text) === null, {
    error: (issue) => `Invalid webhook URL: ${webhookUrlProblem(String(issue.input))}`,
    params: WHOLE_IN_WORDS,
  })
  .meta({ pattern: WEBHOOK_URL_TYPED.source, example: "https://hooks.example.com/usdx" });

/** A threshold or step percentage for its kind: the first problem, in the sentence the admin reads. */
function thresholdsProblem(body: { kind: (typeof ALERT_KINDS)[number]; threshold?: string | null; stepPercent?: string | null }) {
  const info = ALERT_KIND_INFO[body.kind];
  const threshold = body.threshold ?? "";
  if (threshold.trim() !== "") {
    if (!info.threshold) return { path: "threshold", message: `A '${info.label}' rule takes no threshold: leave it empty.`, params: WHOLE };
    const noun = body.kind === "multiplier" ? "step" : "amount";
    try {
      const value = parseTokenAmount(threshold);
      if (value > MAX_UINT256)
        return { path: "threshold", message: `Invalid ${noun}: larger than the contract can hold.`, params: WHOLE_IN_WORDS };
    } catch (error) {
      const message = `Invalid ${noun}: ${(error as Error).message}. Enter a number such as ${info.threshold.example}, or leave it empty.`;
      return { path: "threshold", message, params: WHOLE };
    }
  }
  const step = body.stepPercent ?? "";
  if (step.trim() !== "") {
    if (!info.stepPercent)
      return { path: "stepPercent", message: `A '${info.label}' rule takes no step percentage: leave it empty.`, params: WHOLE };
    if (!STEP_BOUND_OR_BLANK_TYPED.test(step))
      return {
        path: "stepPercent",
        message: `Invalid step percentage: '${step.trim()}' is not a percentage from 0 to 1000 with at most two decimals. Enter a number such as 1 or 0.5, or leave it empty.`,
        params: WHOLE,
      };
  }
  return null;
}

/**
 * POST /api/alerts/rules' body. Whether a kind takes a threshold or a step percentage, and in what
 * form, is stated for the document by the fields' patterns and the object's if/then; the check
 * answers the first problem as the admin reads it.
 */
const newRule = z
  .object({
    kind: z.enum(ALERT_KINDS, { message: `the kind must be one of ${ALERT_KINDS.join(", ")}` }),
    threshold: z
      .string()
      .max(100, "must be at most 100 characters")
      .meta({ pattern: TOKEN_AMOUNT_OR_BLANK_TYPED.source })
      .nullable()
      .optional()
      .meta({
        description: `For ${ALERT_KINDS.filter((k) => ALERT_KIND_INFO[k].threshold).join(", ")} only (empty or null for the others): a decimal with at most 18 decimals, USDX for mint and burn, a step of the multiplier for multiplier. At most 2^256 - 1 in 18-decimal units: JSON Schema cannot compare a decimal's value with that, so this says it.`,
        example: "10000",
      }),
    stepPercent: z
      .string()
      .max(20, "must be at most 20 characters")
      .meta({ pattern: STEP_BOUND_OR_BLANK_TYPED.source })
      .nullable()
      .optional()
      .meta({
        description: "multiplier only (empty or null for the others): a percentage of every balance, 0 to 1000, at most two decimals.",
        example: "1",
      }),
    webhookUrl,
  })
  .superRefine((body, ctx) => {
    const problem = thresholdsProblem(body);
    if (problem) ctx.addIssue({ code: "custom", path: [problem.path], message: problem.message, params: problem.params });
  })
  .meta({
    allOf: [
      {
        if: { properties: { kind: { enum: KINDS_WITHOUT_THRESHOLD } }, required: ["kind"] },
        then: { properties: { threshold: BLANK_OR_NULL } },
      },
      {
        if: { properties: { kind: { enum: KINDS_WITHOUT_STEP } }, required: ["kind"] },
        then: { properties: { stepPercent: BLANK_OR_NULL } },
      },
    ],
  });

export const alertsApi = endpoints({
  "GET /api/alerts/rules": {
    tag: TAG,
    summary: "The alert rules",
    access: "admin",
    answer: ok({ rules: z.array(AlertRule) }),
    errors: [503],
  },
  "POST /api/alerts/rules": {
    tag: TAG,
    summary: "Add an alert rule",
    description: [
      "The rule alerts on events indexed after it is made, each once, once the index holds `ALERT_CONFIRMATIONS` blocks above it.",
      `The webhook must be http:// or https:// written out (https:// only off the local chain) with no user name or password and no spaces, a URL a WHATWG parser reads (JSON Schema has no such parser: this says it), and its host must resolve to public addresses only (not loopback, private, link-local, CGNAT, multicast or unspecified, IPv4 or IPv6) unless the server allows private receivers (\`ALERT_ALLOW_PRIVATE_URLS\`); at most ${ALERT_LIMITS.urlLength} characters.`,
      "The answer carries the rule's secret, the only time it is shown (rotate it to get a new one).",
    ].join(" "),
    access: "admin",
    body: newRule,
    status: 201,
    answer: ok({ rule: AlertRule, secret: SECRET }),
    noStore: true,
    // 409: the server keeps as many rules as it may (ALERT_MAX_RULES).
    errors: [409, 503],
  },
  "PATCH /api/alerts/rules/:id": {
    tag: TAG,
    summary: "Turn an alert rule on or off",
    description: "Turning a rule off cancels its waiting deliveries; turned on again, it alerts on events indexed from then on.",
    access: "admin",
    params: rulePath,
    body: z.object({ enabled: z.boolean({ message: "enabled must be true or false" }) }),
    answer: ok({ rule: AlertRule }),
    errors: [404, 503],
  },
  "DELETE /api/alerts/rules/:id": {
    tag: TAG,
    summary: "Delete an alert rule and its delivery log",
    access: "admin",
    params: rulePath,
    answer: ok({ id: z.number().int() }),
    errors: [404, 503],
  },
  "POST /api/alerts/rules/:id/rotate-secret": {
    tag: TAG,
    summary: "Give an alert rule a new secret",
    description: "The old secret signs nothing from now on. The answer carries the new one, the only time it is shown.",
    access: "admin",
    params: rulePath,
    answer: ok({ rule: AlertRule, secret: SECRET }),
    noStore: true,
    errors: [404, 503],
  },
  "POST /api/alerts/rules/:id/test": {
    tag: TAG,
    summary: "Send a test delivery now",
    description:
      "A signed delivery with `test: true` and no event, sent once to the rule's webhook (whether the rule is on or off); answered with that attempt, which the delivery log keeps too.",
    access: "admin",
    params: rulePath,
    answer: ok({ delivery: AlertDelivery }),
    errors: [404, 429, 503],
  },
  "GET /api/alerts/deliveries": {
    tag: TAG,
    summary: "The delivery log, newest first",
    description: "Each delivery with every attempt and its answer.",
    access: "admin",
    query: z.object({
      ruleId: rowId("a rule").optional().meta({ description: "Only this rule's deliveries." }),
      limit: wholeNumber(1, 100).default(20).meta({ description: "Deliveries per page, 1 to 100; 20 when left out." }),
      before: rowId("a delivery").optional().meta({ description: "The last delivery id of the previous page." }),
    }),
    answer: ok({ deliveries: z.array(AlertDelivery) }),
    errors: [503],
  },
});
