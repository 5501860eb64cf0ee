/**
 * Operators' alerts (issue 18): the kinds of rule an admin may set on the event index, in the
 * product's words, shared by the server (which matches events with them) and the dashboard (which
 * offers them). No zod here: the dashboard imports it at run time.
 */

export const ALERT_KINDS = ["mint", "burn", "role", "pause", "upgrade", "multiplier", "blocklist", "safe"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export interface AlertKindInfo {
  /** What the dashboard calls it. */
  label: string;
  /**
   * The USDX events the kind watches (a Transfer only from or to the zero address); none for 'safe',
   * whose deliveries are a Safe proposal's steps as the server stores them, not indexed events.
   */
  events: readonly string[];
  /**
   * What the rule's threshold means, or null when the kind takes none: an amount of USDX (a mint or
   * burn of more than it), or a step of the multiplier (a change of more than it from the one before).
   */
  threshold: { label: string; hint: string; example: string } | null;
  /**
   * The dashboard's field for the kind, where it is not the threshold: a multiplier rule is set
   * there by a percentage of every balance (stepPercent), as the oracle's tools weigh a change.
   */
  stepPercent?: { label: string; hint: string; example: string };
}

export const ALERT_KIND_INFO: Readonly<Record<AlertKind, AlertKindInfo>> = {
  mint: {
    label: "Mint above an amount",
    events: ["Transfer"],
    threshold: {
      label: "More than (USDX)",
      hint: "Alert on each mint of more than this many USDX; leave it empty for every mint.",
      example: "10000",
    },
  },
  burn: {
    label: "Burn above an amount",
    events: ["Transfer"],
    threshold: {
      label: "More than (USDX)",
      hint: "Alert on each burn of more than this many USDX; leave it empty for every burn.",
      example: "10000",
    },
  },
  role: { label: "Role granted or revoked", events: ["RoleGranted", "RoleRevoked"], threshold: null },
  pause: { label: "Pause or unpause", events: ["Paused", "Unpaused"], threshold: null },
  upgrade: { label: "Upgrade", events: ["Upgraded"], threshold: null },
  multiplier: {
    label: "Reward multiplier change",
    events: ["RewardMultiplier"],
    threshold: {
      label: "Step (multiplier)",
      hint: "Alert only when the multiplier moves by more than this from the one before (0.01 is one percentage point); leave it empty for every change.",
      example: "0.01",
    },
    stepPercent: {
      label: "Step (% of every balance)",
      hint: "Alert only when one change moves every balance by more than this percentage, up or down (1 is 1%); leave it empty for every change.",
      example: "1",
    },
  },
  blocklist: { label: "Account blocked or unblocked", events: ["AccountBlocked", "AccountUnblocked"], threshold: null },
  // One kind for the three steps, not three: they are one proposal's story, a receiver that wants
  // only some filters on the body's proposal.step, and an admin keeps one rule (one secret) per hook.
  safe: { label: "Safe proposal created, approved or executed", events: [], threshold: null },
};

/** The steps of a Safe proposal a 'safe' rule delivers: executed covers an execution whose call failed too. */
export const SAFE_ALERT_STEPS = ["created", "approved", "executed"] as const;
export type SafeAlertStep = (typeof SAFE_ALERT_STEPS)[number];

export function isAlertKind(value: string): value is AlertKind {
  return (ALERT_KINDS as readonly string[]).includes(value);
}

/** A delivery's state: waiting for its next attempt, answered 2xx, out of attempts, or called off (the event left the chain, the rule was turned off). */
export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "cancelled"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The headers each delivery carries: how a receiver checks it came from this server and drops a repeat. */
export const ALERT_HEADERS = {
  /** `sha256=<hex HMAC-SHA256 of the raw body, keyed by the rule's secret>`. */
  signature: "X-USDX-Signature",
  /** The delivery's id: the same on every attempt of one delivery, so a receiver can drop a repeat. */
  delivery: "X-USDX-Delivery",
  /** Unix seconds when this attempt was sent (the signed body's sentAt, as a number). */
  timestamp: "X-USDX-Timestamp",
} as const;

/** Bounds on what one admin can make the server keep or do. */
export const ALERT_LIMITS = {
  /** Characters of a webhook URL. */
  urlLength: 2048,
  /** Characters of a receiver's answer kept per attempt. */
  excerptChars: 500,
} as const;

/**
 * A webhook URL's form, as typed (surrounding spaces allowed): http:// or https:// written out, a
 * host with no user name or password in front of it, and no spaces. The API's document states it;
 * webhookUrlProblem checks it and the rest, for a rule's creation and for every attempt alike.
 */
export const WEBHOOK_URL_TYPED = /^\s*[hH][tT][tT][pP][sS]?:\/\/[^\s/?#\\@]+(?:[/?#\\]\S*)?\s*$/;

const notAUrl = (text: string) => `'${text.slice(0, 100)}' is not a URL: enter a full address such as https://hooks.example.com/usdx.`;

/**
 * Why a webhook URL's form is refused, in a sentence the admin can act on; null when it is a URL
 * WEBHOOK_URL_TYPED matches and a URL parser reads (whether its host may be reached, and whether
 * plain http is allowed here, are the server's to say).
 */
export function webhookUrlProblem(raw: string): string | null {
  const text = raw.trim();
  if (text === "") return "Enter the webhook's URL (https://...).";
  if (text.length > ALERT_LIMITS.urlLength) return `The webhook URL is longer than ${ALERT_LIMITS.urlLength} characters.`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return notAUrl(text);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `The webhook URL must start with http:// or https://, not ${url.protocol}//.`;
  // An '@' before the host is a user name, even an empty one ('http://@host/').
  if (url.username || url.password || /^[^/?#\\]*\/\/[^/?#\\]*@/.test(text))
    return "The webhook URL may not carry a user name or password: receivers check each delivery's signature instead.";
  if (!url.hostname) return "The webhook URL has no host.";
  // What the parser forgives and the form does not: 'http:/host', spaces inside.
  if (!WEBHOOK_URL_TYPED.test(text)) return notAUrl(text);
  return null;
}
