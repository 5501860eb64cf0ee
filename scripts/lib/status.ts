import type { HardhatRuntimeEnvironment } from "hardhat/types";
import type { TypedContractEvent, TypedEventLog } from "@bindings/common";
import { USDX__factory } from "@bindings";
import type { DeploymentManifest } from "@common/manifest";
import { formatTokenAmount } from "@common/amounts";
import { isLocalChain } from "./network";
import { ROLE_NAMES, ROLES, RoleName } from "@common/roles";
import { SEEDED_ACCOUNTS } from "@common/seedAccounts";
import { formatFacts, formatTable } from "@common/textTable";

export interface TokenStatus {
  network: string;
  chainId: number;
  block: number;
  proxy: string;
  implementation: string;
  batchPayments: string;
  name: string;
  symbol: string;
  decimals: number;
  totalSupply: bigint;
  totalShares: bigint;
  rewardMultiplier: bigint;
  paused: boolean;
  roleHolders: Record<RoleName, string[]>;
  blocked: string[];
  /** Seeded account names by address, on the local chain. */
  names: Record<string, string>;
}

/**
 * Reads the token's state. Role holders and blocked accounts are found from the events since the
 * deployment block (queried `logChunk` blocks at a time), then confirmed with hasRole / isBlocked.
 */
export async function readStatus(hre: HardhatRuntimeEnvironment, manifest: DeploymentManifest, logChunk: number): Promise<TokenStatus> {
  const provider = hre.ethers.provider;
  const usdx = USDX__factory.connect(manifest.proxy, provider);
  const block = await provider.getBlockNumber();

  async function logs<E extends TypedContractEvent>(event: E): Promise<TypedEventLog<E>[]> {
    const all: TypedEventLog<E>[] = [];
    for (let from = manifest.deploymentBlock; from <= block; from += logChunk) {
      all.push(...(await usdx.queryFilter(event, from, Math.min(from + logChunk - 1, block))));
    }
    return all;
  }

  const [name, symbol, decimals, totalSupply, totalShares, rewardMultiplier, paused, implementation, granted, blockedLogs] =
    await Promise.all([
      usdx.name(),
      usdx.symbol(),
      usdx.decimals(),
      usdx.totalSupply(),
      usdx.totalShares(),
      usdx.rewardMultiplier(),
      usdx.paused(),
      hre.upgrades.erc1967.getImplementationAddress(manifest.proxy),
      logs(usdx.filters.RoleGranted),
      logs(usdx.filters.AccountBlocked),
    ]);

  const candidates = [...new Set(granted.map((l) => l.args.account))];
  const roleHolders = Object.fromEntries(ROLE_NAMES.map((r) => [r, [] as string[]])) as Record<RoleName, string[]>;
  await Promise.all(
    ROLE_NAMES.flatMap((role) =>
      candidates.map(async (account) => {
        if (await usdx.hasRole(ROLES[role], account)) roleHolders[role].push(account);
      }),
    ),
  );
  for (const role of ROLE_NAMES) roleHolders[role].sort();
  const blockedCandidates = [...new Set(blockedLogs.map((l) => l.args.account))];
  const blockedFlags = await Promise.all(blockedCandidates.map((a) => usdx.isBlocked(a)));
  const blocked = blockedCandidates.filter((_, i) => blockedFlags[i]).sort();

  const names: Record<string, string> = {};
  if (isLocalChain(manifest.chainId)) {
    const signers = await hre.ethers.getSigners();
    for (const account of SEEDED_ACCOUNTS) if (signers[account.index]) names[signers[account.index].address] = account.name;
  }
  for (const safe of manifest.safes ?? []) names[safe.address] = safe.name;

  return {
    network: manifest.network,
    chainId: manifest.chainId,
    block,
    proxy: manifest.proxy,
    implementation,
    batchPayments: manifest.batchPayments,
    name,
    symbol,
    decimals: Number(decimals),
    totalSupply,
    totalShares,
    rewardMultiplier,
    paused,
    roleHolders,
    blocked,
    names,
  };
}

export function formatStatus(s: TokenStatus): string {
  const who = (address: string) => (s.names[address] ? `${address} (${s.names[address]})` : address);
  const facts = formatFacts([
    ["network", `${s.network} (chain ${s.chainId}), block ${s.block}`],
    ["token", `${s.name} (${s.symbol}), ${s.decimals} decimals`],
    ["proxy", s.proxy],
    ["implementation", s.implementation],
    ["BatchPayments", s.batchPayments],
    ["total supply", `${formatTokenAmount(s.totalSupply, 2)} ${s.symbol}`],
    ["total shares", formatTokenAmount(s.totalShares, 2)],
    ["reward multiplier", `${formatTokenAmount(s.rewardMultiplier, 4)}x`],
    ["paused", s.paused ? "yes" : "no"],
  ]);
  const roles = formatTable(
    ["role", "holders"],
    ROLE_NAMES.map((r) => [r, s.roleHolders[r].map(who).join(", ") || "None assigned"]),
  );
  const blocked = s.blocked.length ? s.blocked.map((a) => `  ${who(a)}`).join("\n") : "  No addresses currently blocklisted";
  return `${facts}\n\n${roles}\n\nblocked accounts\n${blocked}`;
}
