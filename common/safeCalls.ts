import { Interface, getAddress } from "ethers";
import { USDX__factory } from "@bindings/factories/contracts/USDX__factory";
import { formatTokenAmount } from "./amounts";
import { roleNameOfHash } from "./roles";
import { TOKEN_SYMBOL } from "./token";
import { shortAddress } from "./wording";

/**
 * What a Safe proposal does, in the words the Approvals screen, the server's refusals and the alerts
 * use: 'Mint 250.00 USDX to 0x14dC...9955', 'Set the reward multiplier to 1.0200x (+0.49%)'.
 * Only the USDX writes a role holder makes are proposed (plus Safe's own rejection), so only those
 * are described; anything else is refused by the server before it is stored.
 */

const USDX = new Interface(USDX__factory.abi);

/** The USDX functions a Safe may be asked to call, each with the role it needs. */
export const PROPOSABLE_FUNCTIONS = {
  mint: "MINTER_ROLE",
  burn: "BURNER_ROLE",
  blockAccount: "BLOCKLIST_ROLE",
  unblockAccount: "BLOCKLIST_ROLE",
  setRewardMultiplier: "ORACLE_ROLE",
  addRewardMultiplier: "ORACLE_ROLE",
  pause: "PAUSE_ROLE",
  unpause: "PAUSE_ROLE",
  grantRole: "DEFAULT_ADMIN_ROLE",
  revokeRole: "DEFAULT_ADMIN_ROLE",
} as const;

export type ProposableFunction = keyof typeof PROPOSABLE_FUNCTIONS;

export interface DecodedTokenCall {
  name: ProposableFunction;
  args: readonly unknown[];
}

/** Decodes calldata of USDX; null when it is not one of PROPOSABLE_FUNCTIONS (or does not decode). */
export function decodeTokenCall(data: string): DecodedTokenCall | null {
  try {
    const parsed = USDX.parseTransaction({ data });
    if (!parsed || !(parsed.name in PROPOSABLE_FUNCTIONS)) return null;
    // A call with bytes after its arguments would still decode: only the exact encoding is taken.
    if (USDX.encodeFunctionData(parsed.fragment, parsed.args).toLowerCase() !== data.toLowerCase()) return null;
    return { name: parsed.name as ProposableFunction, args: [...parsed.args] };
  } catch {
    return null;
  }
}

/** The calldata of a USDX write, as the forms build it. */
export function encodeTokenCall(name: ProposableFunction, args: readonly unknown[]): string {
  return USDX.encodeFunctionData(name, args);
}

const usdx = (value: bigint) => `${formatTokenAmount(value, 2)} ${TOKEN_SYMBOL}`;
const multiplier = (value: bigint) => `${formatTokenAmount(value, 4)}x`;

/** '(+0.49%)' from the multiplier now to `next`; empty when the current one is not known. */
function change(current: bigint | null | undefined, next: bigint): string {
  if (!current || current <= 0n) return "";
  // Basis points of a hundredth, rounded toward zero: the sign and two decimals are what a reader checks.
  const hundredths = ((next - current) * 10_000n) / current;
  const sign = hundredths < 0n ? "-" : "+";
  const abs = hundredths < 0n ? -hundredths : hundredths;
  return ` (${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}%)`;
}

/**
 * One sentence for a proposal's call. `to` decides the kind: the token's writes, the Safe's own
 * empty call (a rejection), or anything else (which the dashboard never proposes).
 */
export function describeSafeCall(
  call: { to: string; data: string },
  where: { token: string; safe: string; multiplier?: bigint | null },
): string {
  const to = getAddress(call.to);
  if (to === getAddress(where.safe) && (call.data === "0x" || call.data === "")) return "Reject: use up this nonce without doing anything";
  if (to !== getAddress(where.token)) return `A call of ${shortAddress(to)} the dashboard does not describe`;
  const decoded = decodeTokenCall(call.data);
  if (!decoded) return `A call of ${TOKEN_SYMBOL} the dashboard does not describe`;
  const [a, b] = decoded.args as [unknown, unknown];
  switch (decoded.name) {
    case "mint":
      return `Mint ${usdx(b as bigint)} to ${shortAddress(a as string)}`;
    case "burn":
      return `Burn ${usdx(b as bigint)} from ${shortAddress(a as string)}`;
    case "blockAccount":
      return `Block ${shortAddress(a as string)}`;
    case "unblockAccount":
      return `Unblock ${shortAddress(a as string)}`;
    case "pause":
      return "Pause USDX: stop all transfers, mints and burns";
    case "unpause":
      return "Unpause USDX";
    case "setRewardMultiplier":
      return `Set the reward multiplier to ${multiplier(a as bigint)}${change(where.multiplier, a as bigint)}`;
    case "addRewardMultiplier": {
      const now = where.multiplier ?? null;
      const to = now ? ` (to ${multiplier(now + (a as bigint))}${change(now, now + (a as bigint))})` : "";
      return `Add ${formatTokenAmount(a as bigint, 4)} to the reward multiplier${to}`;
    }
    case "grantRole":
      return `Grant ${roleNameOfHash(a as string) ?? "an unknown role"} to ${shortAddress(b as string)}`;
    case "revokeRole":
      return `Revoke ${roleNameOfHash(a as string) ?? "an unknown role"} from ${shortAddress(b as string)}`;
  }
}
