import { HDNodeWallet } from "ethers";
import type { RoleName } from "./roles";

/**
 * The local chain's named accounts: Hardhat's default accounts by index, each with one job, so a
 * tester (and the dashboard's development wallet) can act as any role. scripts/seed.ts makes the
 * chain match scenarios/default.yaml, which names these same accounts (a test holds the two equal).
 */
export interface SeededAccount {
  name: string;
  /** Index among the Hardhat node's unlocked accounts. */
  index: number;
  roles: readonly RoleName[];
  /** USDX it is funded with before the history (default.yaml's targets come from it), and topped up to on a fork of a live token. */
  funds?: string;
  /** Blocked once seeded. */
  blocked?: boolean;
  description: string;
}

export const SEEDED_ACCOUNTS: readonly SeededAccount[] = [
  { name: "admin", index: 0, roles: ["DEFAULT_ADMIN_ROLE"], funds: "100000", description: "deployer and owner; grants roles" },
  { name: "minter", index: 1, roles: ["MINTER_ROLE"], description: "mints (the mock bank's deposits)" },
  { name: "burner", index: 2, roles: ["BURNER_ROLE"], description: "burns" },
  { name: "blocklister", index: 3, roles: ["BLOCKLIST_ROLE"], description: "blocks and unblocks" },
  { name: "oracle", index: 4, roles: ["ORACLE_ROLE"], description: "sets the reward multiplier" },
  { name: "pauser", index: 5, roles: ["PAUSE_ROLE"], description: "pauses and unpauses" },
  { name: "upgrader", index: 6, roles: ["UPGRADE_ROLE"], description: "upgrades the implementation" },
  { name: "alice", index: 7, roles: [], funds: "10000", description: "holder" },
  { name: "bob", index: 8, roles: [], funds: "5000", description: "holder" },
  { name: "carol", index: 9, roles: [], funds: "2500", description: "holder" },
  { name: "dave", index: 10, roles: [], funds: "1000", blocked: true, description: "holder, blocked" },
  { name: "erin", index: 11, roles: [], description: "empty wallet" },
  { name: "approver", index: 12, roles: [], description: "third owner of the Operations Safe" },
];

/**
 * The Safe of the seeded chain (Safe v1.4.1): 2 of its 3 owners approve each action. What it holds
 * (roles, USDX) is scenarios/default.yaml's; a fork of a live token makes these accounts owners of
 * the live Safes (scripts/lib/fork.ts).
 */
export const SEEDED_SAFE = {
  name: "Operations Safe",
  owners: ["admin", "minter", "approver"],
  threshold: 2,
} as const satisfies { name: string; owners: readonly string[]; threshold: number };

export function seededAccount(name: string): SeededAccount {
  const account = SEEDED_ACCOUNTS.find((a) => a.name === name.toLowerCase());
  if (!account) throw new Error(`No seeded account named '${name}' (known: ${SEEDED_ACCOUNTS.map((a) => a.name).join(", ")})`);
  return account;
}

/**
 * The Hardhat node's default mnemonic: its accounts are public test keys, funded only on the local
 * chain. The server's mock bank mints with the seeded minter's key derived from it (local only).
 */
export const LOCAL_DEV_MNEMONIC = "test test test test test test test test test test test junk";

/** The derivation path of Hardhat's account `index`. */
export const localAccountPath = (index: number) => `m/44'/60'/0'/0/${index}`;

let addresses: string[] | null = null;

/** The seeded accounts' addresses, by index (derived once: about 90 ms). */
export function seededAddresses(): readonly string[] {
  if (!addresses) {
    const root = HDNodeWallet.fromPhrase(LOCAL_DEV_MNEMONIC, undefined, "m/44'/60'/0'/0");
    addresses = SEEDED_ACCOUNTS.map((a) => root.deriveChild(a.index).address);
  }
  return addresses;
}
