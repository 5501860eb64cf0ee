import { ZeroHash, id } from "ethers";

/**
 * The seven on-chain roles of USDX (PRODUCT.md section 6), in the order the dashboard lists them.
 * DEFAULT_ADMIN_ROLE is the zero hash; the others are keccak256 of their names.
 */
export const ROLE_NAMES = [
  "DEFAULT_ADMIN_ROLE",
  "MINTER_ROLE",
  "BURNER_ROLE",
  "BLOCKLIST_ROLE",
  "ORACLE_ROLE",
  "PAUSE_ROLE",
  "UPGRADE_ROLE",
] as const;

export type RoleName = (typeof ROLE_NAMES)[number];

export const ROLES: Readonly<Record<RoleName, string>> = Object.fromEntries(
  ROLE_NAMES.map((name) => [name, name === "DEFAULT_ADMIN_ROLE" ? ZeroHash : id(name)]),
) as Record<RoleName, string>;

/** What each role permits, in the spec's words. */
export const ROLE_PERMITS: Readonly<Record<RoleName, string>> = {
  DEFAULT_ADMIN_ROLE: "grant and revoke roles",
  MINTER_ROLE: "mint",
  BURNER_ROLE: "burn",
  BLOCKLIST_ROLE: "block and unblock accounts",
  ORACLE_ROLE: "set and add to the reward multiplier",
  PAUSE_ROLE: "pause and unpause",
  UPGRADE_ROLE: "upgrade the implementation",
};

export function isRoleName(value: string): value is RoleName {
  return (ROLE_NAMES as readonly string[]).includes(value);
}

/**
 * Accepts a role as the dashboard and the tasks let a person type it: 'MINTER_ROLE', 'minter',
 * 'DEFAULT_ADMIN', 'admin'. Throws the spec's message 'Invalid role: {role}' otherwise.
 */
export function parseRoleName(input: string): RoleName {
  const upper = input.trim().toUpperCase();
  const candidates = [upper, `${upper}_ROLE`, upper === "ADMIN" ? "DEFAULT_ADMIN_ROLE" : ""];
  const found = candidates.find(isRoleName);
  if (!found) throw new Error(`Invalid role: ${input}`);
  return found;
}

export function roleNameOfHash(hash: string): RoleName | undefined {
  return ROLE_NAMES.find((name) => ROLES[name] === hash.toLowerCase());
}
