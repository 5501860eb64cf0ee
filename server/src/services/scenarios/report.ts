import type { USDX } from "@bindings";
import { formatTokenAmount } from "@common/amounts";
import type { NamedSafe } from "@common/manifest";
import { ROLE_NAMES, ROLES } from "@common/roles";
import { formatTable } from "@common/textTable";
import { count } from "@common/wording";
import type { NamedAccount } from "./accounts";
import { durationText } from "./movements";
import { readSafe } from "./safeContracts";
import type { Scenario } from "./schema";

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

/** The printout after a scenario: its accounts and Safes as the chain has them, the keys it generated, what else it made. */
export async function scenarioReport(
  usdx: USDX,
  scenario: Scenario,
  accounts: readonly NamedAccount[],
  safes: readonly NamedSafe[],
  clockSeconds: number,
): Promise<{ lines: string[]; accounts: AccountRow[]; safes: SafeRow[] }> {
  const named = accounts.map(({ name, address }) => ({ name, address }));
  const [accountRows, safeRows] = await Promise.all([readAccounts(usdx, named), readSafes(usdx, safes, named)]);
  const generated = accounts.filter((a) => a.privateKey !== null);
  const keys = generated.length === 0 ? "Hardhat's public test keys" : "test keys";
  const lines = [`Seeded accounts (${keys}: never use them on a real network)`, "", formatAccounts(accountRows)];
  if (safeRows.length > 0) lines.push("", "Safes (each action needs its threshold of owners' approvals)", "", formatSafes(safeRows));
  if (generated.length > 0) {
    lines.push(
      "",
      "Keys this scenario generated (from its name and each account's: the same every time it is applied; test keys only, never use them on a real network)",
      "",
      formatTable(
        ["name", "address", "private key"],
        generated.map((a) => [a.name, a.address, a.privateKey!]),
      ),
    );
  }
  const notes: string[] = [];
  if (scenario.holders) {
    notes.push(
      `Holders: ${count(scenario.holders.count)} at ${scenario.holders.balance} USDX each, paid by ${scenario.holders.payer} through BatchPayments (their addresses derive from the scenario's name).`,
    );
  }
  if (clockSeconds > 0) notes.push(`The history moved the chain's clock ${durationText(clockSeconds)} on (block time).`);
  if (notes.length > 0) lines.push("", ...notes);
  return { lines, accounts: accountRows, safes: safeRows };
}
