import type { HardhatRuntimeEnvironment } from "hardhat/types";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { USDX__factory } from "@bindings";
import { parseTokenAmount } from "@common/amounts";
import { loadDeployment, writeManifest } from "@common/manifestFile";
import { LOCAL_CHAIN } from "@common/networks";
import { ROLES } from "@common/roles";
import { SEEDED_ACCOUNTS, SEEDED_MULTIPLIER, SEEDED_SAFE, SEEDED_TRANSFERS, seededAccount } from "@common/seedAccounts";
import { assertNetworkReady, isLocalChain, runMain } from "./lib/network";
import { AccountRow, formatAccounts, formatSafes, readAccounts, readSafes, SafeRow } from "./lib/report";
import { createSafe, deploySafeContracts } from "./lib/safe";

/**
 * Seeds a freshly deployed local chain (see common/seedAccounts.ts): one account per role, funded
 * holders, transfers so history is not empty, one blocked holder, a multiplier above 1.0, and the
 * Operations Safe (Safe v1.4.1, 2 of 3 owners) holding MINTER, ORACLE and PAUSE beside their keys.
 * On a chain that is already seeded it changes nothing and reports the accounts and the Safe.
 */
export async function seedLocalChain(
  hre: HardhatRuntimeEnvironment,
  options: { log?: (line: string) => void } = {},
): Promise<{ alreadySeeded: boolean; accounts: AccountRow[]; safes: SafeRow[] }> {
  const log = options.log ?? (() => undefined);
  const chainId = await assertNetworkReady(hre);
  if (!isLocalChain(chainId)) {
    throw new Error(
      `The seed gives roles to Hardhat's public test accounts, so it runs only on the local chain (${LOCAL_CHAIN.chainId}); this node is chain ${chainId}.`,
    );
  }
  const manifest = await loadDeployment(hre.network.name, hre.ethers.provider);
  const signers = await hre.ethers.getSigners();
  const needed = Math.max(...SEEDED_ACCOUNTS.map((a) => a.index)) + 1;
  if (signers.length < needed) throw new Error(`The seed needs ${needed} unlocked accounts; the node has ${signers.length}.`);
  const signer = (name: string): HardhatEthersSigner => signers[seededAccount(name).index];
  const usdx = USDX__factory.connect(manifest.proxy, signer("admin"));
  if (manifest.owner !== signer("admin").address) {
    throw new Error(
      `USDX's owner is ${manifest.owner}, not the node's account 0 (${signer("admin").address}); the seed expects a local deploy by account 0.`,
    );
  }
  const accounts = SEEDED_ACCOUNTS.map((a) => ({ name: a.name, address: signers[a.index].address }));

  const minter = signer("minter");
  if (await usdx.hasRole(ROLES.MINTER_ROLE, minter.address)) {
    log("This chain is already seeded; nothing changed.");
    return {
      alreadySeeded: true,
      accounts: await readAccounts(usdx, accounts),
      safes: await readSafes(usdx, manifest.safes ?? [], accounts),
    };
  }

  const send = async (label: string, tx: Promise<{ wait: () => Promise<unknown> }>) => {
    await (await tx).wait();
    log(`  ${label}`);
  };
  log("Seeding the local chain:");
  for (const account of SEEDED_ACCOUNTS) {
    for (const role of account.roles.filter((r) => r !== "DEFAULT_ADMIN_ROLE")) {
      await send(`grant ${role} to ${account.name}`, usdx.grantRole(ROLES[role], signers[account.index].address));
    }
  }
  // The Safe before any mint: its roles, like the keys', are there from the start of history.
  const safeContracts = await deploySafeContracts(signer("admin"));
  log("  deploy Safe v1.4.1 (singleton, proxy factory, fallback handler, MultiSendCallOnly)");
  const safe = await createSafe(
    signer("admin"),
    safeContracts,
    SEEDED_SAFE.owners.map((name) => signer(name).address),
    SEEDED_SAFE.threshold,
  );
  log(`  create the ${SEEDED_SAFE.name} (${SEEDED_SAFE.threshold} of ${SEEDED_SAFE.owners.join(", ")})`);
  for (const role of SEEDED_SAFE.roles) await send(`grant ${role} to the ${SEEDED_SAFE.name}`, usdx.grantRole(ROLES[role], safe));
  const safes = [{ name: SEEDED_SAFE.name, address: safe }];
  writeManifest({ ...manifest, safeContracts, safes });

  for (const account of SEEDED_ACCOUNTS.filter((a) => a.funds)) {
    await send(
      `mint ${account.funds} USDX to ${account.name}`,
      usdx.connect(minter).mint(signers[account.index].address, parseTokenAmount(account.funds!)),
    );
  }
  await send(
    `mint ${SEEDED_SAFE.funds} USDX to the ${SEEDED_SAFE.name}`,
    usdx.connect(minter).mint(safe, parseTokenAmount(SEEDED_SAFE.funds)),
  );
  for (const t of SEEDED_TRANSFERS) {
    await send(
      `${t.from} sends ${t.amount} USDX to ${t.to}`,
      usdx.connect(signer(t.from)).transfer(signer(t.to).address, parseTokenAmount(t.amount)),
    );
  }
  const oracle = usdx.connect(signer("oracle"));
  await send(`set the reward multiplier to ${SEEDED_MULTIPLIER.set}`, oracle.setRewardMultiplier(parseTokenAmount(SEEDED_MULTIPLIER.set)));
  await send(`add ${SEEDED_MULTIPLIER.add} to the reward multiplier`, oracle.addRewardMultiplier(parseTokenAmount(SEEDED_MULTIPLIER.add)));
  for (const account of SEEDED_ACCOUNTS.filter((a) => a.blocked)) {
    await send(`block ${account.name}`, usdx.connect(signer("blocklister")).blockAccount(signers[account.index].address));
  }
  return { alreadySeeded: false, accounts: await readAccounts(usdx, accounts), safes: await readSafes(usdx, safes, accounts) };
}

if (require.main === module) {
  runMain(async () => {
    const hre = (await import("hardhat")).default;
    const { accounts, safes } = await seedLocalChain(hre, { log: console.log });
    console.log(`\nSeeded accounts (Hardhat's public test keys: never use them on a real network)\n`);
    console.log(formatAccounts(accounts));
    if (safes.length > 0) console.log(`\nSafes (each action needs its threshold of owners' approvals)\n\n${formatSafes(safes)}`);
  });
}
