import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { webhookUrlProblem } from "@common/alerts";

/**
 * Where a webhook may point (docs/SECURITY.md, "Alerts"). The server makes the request, from inside
 * its own network, so an admin's URL must not be a way to reach what only the server can: its own
 * loopback services, the private network, or a cloud's metadata service (169.254.169.254). A URL is
 * checked when a rule is saved and again before every attempt, since a name can resolve elsewhere
 * later; the attempt connects to the address that was checked (webhook.ts), never to a second
 * resolution of the name.
 */

/** A URL or address refused, in a sentence the admin can act on. */
export class RefusedUrl extends Error {}

/** Address families a local operator may allow (ALERT_ALLOW_PRIVATE_URLS): a receiver on this machine or the office network. */
const PRIVATE_RANGES = new Set(["loopback", "private", "linkLocal", "carrierGradeNat", "uniqueLocal"]);

const RANGE_WORDS: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private network address",
  linkLocal: "a link-local address (where cloud metadata services answer)",
  carrierGradeNat: "a carrier-grade NAT address",
  uniqueLocal: "a private (unique local) IPv6 address",
  unspecified: "the unspecified address",
  broadcast: "the broadcast address",
  multicast: "a multicast address",
  reserved: "a reserved address",
};

// Special-purpose blocks ipaddr.js 1.9 calls plain unicast: IPv4-compatible IPv6 (::a.b.c.d, which
// may reach an IPv4 host) and the benchmarking network (198.18.0.0/15).
const EXTRA_REFUSED: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [ipaddr.parseCIDR("::/96"), ipaddr.parseCIDR("198.18.0.0/15")];

/** Why a webhook may not reach `address` (an IP address), or null when it may. */
export function refusedAddress(address: string, allowPrivate: boolean): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return "not an IP address";
  }
  // ::ffff:10.0.0.1 reaches 10.0.0.1: judged as the IPv4 address it is.
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  if (range === "unicast") {
    const special = EXTRA_REFUSED.some(([net, bits]) => net.kind() === ip.kind() && (ip as ipaddr.IPv4).match(net as ipaddr.IPv4, bits));
    return special ? "a special-purpose address" : null;
  }
  if (allowPrivate && PRIVATE_RANGES.has(range)) return null;
  return RANGE_WORDS[range] ?? "a special-purpose address (a tunnel or translation prefix)";
}

/**
 * The URL's form (common/alerts.ts webhookUrlProblem, which the API's declaration runs too), then
 * https only off the local chain (`httpsOnly`): an attempt checks an old rule's URL again.
 */
export function parseWebhookUrl(raw: string, httpsOnly: boolean): URL {
  const problem = webhookUrlProblem(raw);
  if (problem) throw new RefusedUrl(problem);
  const url = new URL(raw.trim());
  // Signed is not secret: over plain http anyone on the way reads every alert, and could answer for the receiver.
  if (httpsOnly && url.protocol === "http:")
    throw new RefusedUrl(
      "Off the local chain the webhook URL must start with https://: plain http would carry every alert across the network in the clear.",
    );
  return url;
}

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

type Resolver = (hostname: string) => Promise<CheckedAddress[]>;

const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/**
 * The addresses `url`'s host resolves to, every one of them allowed; else RefusedUrl naming the
 * address and why. One refused address refuses the whole name: a name whose records mix a public
 * address with a private one would otherwise reach the private one whenever it came first.
 */
export async function resolveChecked(url: URL, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<CheckedAddress[]> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = ipaddr.isValid(host);
  let addresses: CheckedAddress[];
  if (literal) {
    addresses = [{ address: host, family: ipaddr.parse(host).kind() === "ipv6" ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new RefusedUrl(`The webhook's host ${host} does not resolve${code ? ` (${code})` : ""}: check the name.`);
    }
    if (addresses.length === 0) throw new RefusedUrl(`The webhook's host ${host} does not resolve: check the name.`);
  }
  for (const { address } of addresses) {
    const why = refusedAddress(address, allowPrivate);
    if (why) {
      const where = literal ? `${address} is` : `${host} resolves to ${address},`;
      // Only what the operator could allow is worth the hint.
      const remedy =
        !allowPrivate && refusedAddress(address, true) === null
          ? " (a receiver on this machine or network needs ALERT_ALLOW_PRIVATE_URLS=true on the server)"
          : "";
      throw new RefusedUrl(`Refused: ${where} ${why}; webhooks may only reach public addresses${remedy}.`);
    }
  }
  return addresses;
}
