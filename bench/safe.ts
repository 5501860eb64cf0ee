/**
 * Safe gas bench (`npm run bench:safe`): what an admin write costs when a 2-of-3 Safe executes it,
 * and what a 1,000-row batch costs paid from a Safe (each chunk one execution of MultiSendCallOnly:
 * approve, then pay) beside the same batch paid from a wallet (approve once, then pay per chunk).
 * On the in-process Hardhat network, with Safe v1.4.1's published bytecode. Prints figures and
 * ratios; not a test.
 */
import { ethers, upgrades } from "hardhat";
import { Contract, getAddress, hexlify, id, parseUnits, randomBytes } from "ethers";
import type { BatchPayments, USDX } from "@bindings";
import { maxRecipientsPerSafeChunk } from "@common/gasLimits";
import { ROLES } from "@common/roles";
import {
  SAFE_INTERFACE,
  execTransactionArgs,
  multiSendSafeTx,
  packSignatures,
  plainSafeTx,
  safeTypedData,
  type SafeTx,
} from "@common/safe";
import { encodeTokenCall } from "@common/safeCalls";
import { TOKEN_NAME, TOKEN_SYMBOL } from "@common/token";
import { formatTable } from "@common/textTable";
import { createSafe, deploySafeContracts } from "../server/src/services/scenarios/safeContracts";

const ROWS = 1_000;
const usd = (n: string | number) => parseUnits(String(n), 18);

async function gasOf(tx: Promise<{ wait: () => Promise<{ gasUsed: bigint } | null> }>): Promise<number> {
  return Number((await (await tx).wait())!.gasUsed);
}

const fresh = (n: number) => Array.from({ length: n }, () => getAddress(hexlify(randomBytes(20))));
const amountsFor = (n: number) => Array.from({ length: n }, (_, i) => usd((1 + (i % 97) * 0.37).toFixed(2)));

async function main() {
  const [admin, minter, third, payer] = await ethers.getSigners();
  const usdx = (await upgrades.deployProxy(await ethers.getContractFactory("USDX"), [TOKEN_NAME, TOKEN_SYMBOL, admin.address], {
    kind: "uups",
  })) as unknown as USDX;
  const batch = (await (await ethers.getContractFactory("BatchPayments")).deploy(await usdx.getAddress())) as unknown as BatchPayments;
  const contracts = await deploySafeContracts(admin);
  const owners = [admin, minter, third];
  const safeAddress = await createSafe(
    admin,
    contracts,
    owners.map((o) => o.address),
    2,
  );
  const safe = new Contract(safeAddress, SAFE_INTERFACE, admin);
  const { chainId } = await ethers.provider.getNetwork();
  for (const role of ["MINTER_ROLE", "ORACLE_ROLE"] as const) {
    await usdx.grantRole(ROLES[role], admin.address);
    await usdx.grantRole(ROLES[role], safeAddress);
  }
  await usdx.setRewardMultiplier(usd("1.015"));
  const token = await usdx.getAddress();
  const batchAddress = await batch.getAddress();

  /** Executes `tx` with the first two owners' signatures, as the Approvals screen's Execute does. */
  async function execute(tx: SafeTx): Promise<number> {
    const { domain, types, message } = safeTypedData(chainId, safeAddress, tx);
    const signatures = await Promise.all(
      owners
        .slice(0, 2)
        .map(async (o) => ({ owner: o.address, signature: await o.signTypedData(domain, { SafeTx: [...types.SafeTx] }, message) })),
    );
    return gasOf(safe.getFunction("execTransaction")(...execTransactionArgs(tx, packSignatures(signatures))));
  }
  const nonce = async () => (await safe.nonce()) as bigint;

  // ---------------------------------------------------------------- one admin write
  const writes: [string, number, number][] = [];
  {
    const to = fresh(2);
    const direct = await gasOf(usdx.mint(to[0], usd(250)));
    const viaSafe = await execute(plainSafeTx(token, encodeTokenCall("mint", [to[1], usd(250)]), await nonce()));
    writes.push(["mint 250 USDX, new recipient", direct, viaSafe]);
    const directSet = await gasOf(usdx.setRewardMultiplier(usd("1.02")));
    const viaSafeSet = await execute(plainSafeTx(token, encodeTokenCall("setRewardMultiplier", [usd("1.025")]), await nonce()));
    writes.push(["setRewardMultiplier", directSet, viaSafeSet]);
  }
  console.log("\nAn admin write, by the role's own key and executed by a 2-of-3 Safe (gas used, 21,000 included)\n");
  console.log(
    formatTable(
      ["write", "key", "Safe", "Safe - key", "Safe / key"],
      writes.map(([what, key, viaSafe]) => [
        what,
        key.toLocaleString("en-US"),
        viaSafe.toLocaleString("en-US"),
        (viaSafe - key).toLocaleString("en-US"),
        (viaSafe / key).toFixed(3),
      ]),
    ),
  );

  // ---------------------------------------------------------------- a 1,000-row batch
  const chunk = maxRecipientsPerSafeChunk();
  const recipients = fresh(ROWS * 2);
  const amounts = amountsFor(ROWS);
  const total = amounts.reduce((a, b) => a + b, 0n);
  await usdx.mint(payer.address, total);
  await usdx.mint(safeAddress, total);

  let wallet = await gasOf(usdx.connect(payer).approve(batchAddress, total));
  let fromSafe = 0;
  let chunks = 0;
  for (let start = 0; start < ROWS; start += chunk, chunks++) {
    const rows = amounts.slice(start, start + chunk);
    const chunkTotal = rows.reduce((a, b) => a + b, 0n);
    const reference = id(`bench chunk ${chunks}`);
    wallet += await gasOf(batch.connect(payer).pay(recipients.slice(start, start + rows.length), rows, reference));
    const calls = [
      { to: token, data: usdx.interface.encodeFunctionData("approve", [batchAddress, chunkTotal]) },
      {
        to: batchAddress,
        data: batch.interface.encodeFunctionData("pay", [recipients.slice(ROWS + start, ROWS + start + rows.length), rows, reference]),
      },
    ];
    fromSafe += await execute(multiSendSafeTx(contracts.multiSendCallOnly, calls, await nonce()));
  }
  console.log(`\nA ${ROWS.toLocaleString("en-US")}-row batch to new recipients, in ${chunks} chunks of up to ${chunk} (gas used in all)\n`);
  console.log(
    formatTable(
      ["paid from", "transactions", "total gas", "per recipient"],
      [
        [
          "wallet: approve once, pay per chunk",
          String(chunks + 1),
          wallet.toLocaleString("en-US"),
          Math.round(wallet / ROWS).toLocaleString("en-US"),
        ],
        [
          "2-of-3 Safe: one execution per chunk",
          String(chunks),
          fromSafe.toLocaleString("en-US"),
          Math.round(fromSafe / ROWS).toLocaleString("en-US"),
        ],
      ],
    ),
  );
  console.log(
    `\nSafe / wallet: ${(fromSafe / wallet).toFixed(3)} (${Math.round((fromSafe - wallet) / chunks).toLocaleString("en-US")} more gas a chunk)`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
