import type { USDX } from "@bindings";
import { formatTokenAmount } from "@common/amounts";
import type { NamedSafe } from "@common/manifest";
import { ROLE_NAMES, ROLES } from "@common/roles";
import { readSafe } from "./safe";

export interface AccountRow {
  name: string;
  address: string;
  roles: string[];
  balance: bigint;
  blocked: boolean;
}

/** Reads each account's roles, balance and blocklist state from the chain. */
export async function readAccounts(usdx: USDX, accounts: { name: string; address: string }[]): Promise<AccountRow[]> {
  return Promise.all(
    accounts.map(async ({ name, address }) => {
      const [held, balance, blocked] = await Promise.all([
        Promise.all(ROLE_NAMES.map((role) => usdx.hasRole(ROLES[role], address))),
        usdx.balanceOf(address),
        usdx.isBlocked(address),
      ]);
      const roles = ROLE_NAMES.filter((_, i) => held[i]).map((r) => r.replace(/_ROLE$/, ""));
      return { name, address, roles, balance, blocked };
    }),
  );
}

/** A plain fixed-width table: what a terminal shows best. */
export function formatTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/** Label and value, one pair a line, the labels padded to one width: a table without headers. */
export function formatFacts(rows: [string, string][]): string {
  return formatTable(["", ""], rows).split("\n").slice(2).join("\n");
}

export function formatAccounts(rows: AccountRow[]): string {
  return formatTable(
    ["name", "address", "roles", "balance (USDX)", "blocked"],
    rows.map((r) => [r.name, r.address, r.roles.join(", ") || "-", formatTokenAmount(r.balance, 2), r.blocked ? "yes" : "no"]),
  );
}

export interface SafeRow {
  name: string;
  address: string;
  /** Each owner by its seeded name where it has one, else its address. */
  owners: string[];
  threshold: number;
  roles: string[];
}

/** Reads each named Safe's owners, threshold and USDX roles from the chain. */
export async function readSafes(usdx: USDX, safes: readonly NamedSafe[], names: { name: string; address: string }[]): Promise<SafeRow[]> {
  const nameOf = (address: string) => names.find((n) => n.address === address)?.name ?? address;
  return Promise.all(
    safes.map(async ({ name, address }) => {
      const [{ owners, threshold }, [row]] = await Promise.all([
        readSafe(usdx.runner as never, address),
        readAccounts(usdx, [{ name, address }]),
      ]);
      return { name, address, owners: owners.map(nameOf), threshold, roles: row.roles };
    }),
  );
}

export function formatSafes(rows: SafeRow[]): string {
  return formatTable(
    ["name", "address", "owners", "threshold", "roles"],
    rows.map((r) => [r.name, r.address, r.owners.join(", "), `${r.threshold} of ${r.owners.length}`, r.roles.join(", ") || "-"]),
  );
}
