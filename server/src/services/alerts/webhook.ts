import { createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { ALERT_HEADERS, ALERT_LIMITS } from "@common/alerts";
import { CheckedAddress, RefusedUrl, parseWebhookUrl, resolveChecked } from "./urlCheck";

/** One attempt's outcome, as the delivery log keeps it. */
export interface AttemptResult {
  attemptedAt: Date;
  /** The receiver's status, or null when it did not answer. */
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
  durationMs: number;
  /** A 2xx: delivered. */
  ok: boolean;
}

export interface WebhookOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Plain http refused (off the local chain). */
  httpsOnly: boolean;
}

/** What a receiver computes to check a delivery: the hex HMAC-SHA256 of the raw body with the rule's secret. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;
}

/** Bytes of the answer read for the excerpt; the rest is never read. */
const EXCERPT_BYTES = ALERT_LIMITS.excerptChars * 4;

/**
 * POSTs `payload` (with this attempt's sentAt) to `url`, signed with `secret`. The URL is checked
 * again first (urlCheck.ts) and the connection goes to the address that check resolved: the
 * request's lookup answers it, so the name is not resolved a second time (DNS rebinding), while
 * TLS still verifies the certificate against the name. Redirects are not followed, nothing is kept
 * alive, and the whole attempt (resolving included) ends after timeoutMs.
 */
export async function postWebhook(
  url: string,
  secret: string,
  deliveryId: string,
  payload: Record<string, unknown>,
  options: WebhookOptions,
): Promise<AttemptResult> {
  const attemptedAt = new Date();
  const started = performance.now();
  const done = (fields: Pick<AttemptResult, "statusCode" | "error" | "excerpt">): AttemptResult => ({
    attemptedAt,
    durationMs: Math.round(performance.now() - started),
    ok: fields.statusCode !== null && fields.statusCode >= 200 && fields.statusCode < 300,
    ...fields,
  });
  // One limit for the whole attempt, resolving included: the abort ends whatever is under way.
  const abort = new AbortController();
  const timedOut = `timed out after ${options.timeoutMs} ms`;
  const timer = setTimeout(() => abort.abort(new Error(timedOut)), options.timeoutMs);
  const deadline = new Promise<never>((_, reject) =>
    abort.signal.addEventListener("abort", () => reject(new Error(timedOut)), { once: true }),
  );
  deadline.catch(() => undefined);
  try {
    const target = parseWebhookUrl(url, options.httpsOnly);
    const [address] = await Promise.race([resolveChecked(target, options.allowPrivate), deadline]);
    const body = JSON.stringify({ ...payload, sentAt: attemptedAt.toISOString() });
    const headers = {
      "content-type": "application/json",
      "user-agent": "USDX-Dashboard-Alerts/1",
      [ALERT_HEADERS.signature]: signature(secret, body),
      [ALERT_HEADERS.delivery]: deliveryId,
      [ALERT_HEADERS.timestamp]: String(Math.floor(attemptedAt.getTime() / 1000)),
    };
    const answer = await Promise.race([send(target, address, headers, body, abort.signal), deadline]);
    const redirect = answer.statusCode >= 300 && answer.statusCode < 400;
    return done({
      statusCode: answer.statusCode,
      error: redirect ? "answered with a redirect, which is not followed" : null,
      excerpt: answer.excerpt,
    });
  } catch (error) {
    const message =
      error instanceof RefusedUrl ? error.message : abort.signal.aborted ? timedOut : describeNetworkError(error as NodeJS.ErrnoException);
    return done({ statusCode: null, error: message, excerpt: null });
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

function send(
  url: URL,
  address: CheckedAddress,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<{ statusCode: number; excerpt: string | null }> {
  // Node's own connection code asks with `all` (happy eyeballs) or without: both get the checked address.
  const pinned = ((_hostname, options, callback) => {
    if (options?.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  }) as LookupFunction;
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      { method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(body) }, lookup: pinned, agent: false, signal },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          resolve({ statusCode: response.statusCode ?? 0, excerpt: excerptOf(Buffer.concat(chunks)) });
          response.destroy();
        };
        response.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          // Enough for the excerpt: the rest of a large answer is never read.
          if (size >= EXCERPT_BYTES) finish();
        });
        response.on("end", finish);
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** The answer's start as text: control characters shown as spaces, at most excerptChars. */
function excerptOf(bytes: Buffer): string | null {
  if (bytes.length === 0) return null;
  // The point is to replace them.
  // eslint-disable-next-line no-control-regex
  const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
  const text = bytes.subarray(0, EXCERPT_BYTES).toString("utf8").replace(CONTROL, " ");
  return text.length > ALERT_LIMITS.excerptChars ? `${text.slice(0, ALERT_LIMITS.excerptChars - 1)}…` : text;
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused: nothing listens at that address and port";
    case "ECONNRESET":
      return "the receiver closed the connection without answering";
    case "ENOTFOUND":
      return "the host does not resolve";
    case "CERT_HAS_EXPIRED":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return `the receiver's TLS certificate is not valid (${error.code})`;
    default:
      return (error.message || String(error)).slice(0, 300);
  }
}
