/**
 * Gas bench (`npm run bench:gas`): what each USDX operation and a batch payment cost on the
 * in-process Hardhat network, against the lower bound for paying a new recipient.
 * Not a test: it prints figures and ratios, and exits 1 if the batch target is missed.
 */
import { ethers, upgrades } from "hardhat";
import { MaxUint256, Signature, Wallet, encodeBytes32String, getAddress, hexlify, parseUnits, randomBytes } from "ethers";
import type { BatchPayments, USDX } from "@bindings";
import { ROLES } from "@common/roles";
import { TOKEN_NAME, TOKEN_SYMBOL } from "@common/token";
import { PERMIT_TYPES, permitDomain } from "@common/permit";
import { REFERENCE_BLOCK_GAS_LIMIT, TRANSACTION_GAS_CAP } from "@common/gasLimits";
import { formatTable } from "@common/textTable";

// A new recipient's balance goes from zero to non-zero (cold SSTORE: 22,100) and gets a Transfer
// log (LOG3 with one word of data: 375 + 3 x 375 + 8 x 32 = 1,756).
const NEW_RECIPIENT_BOUND = 22_100 + 1_756;
const TARGET_RATIO = 1.25;
const BATCH_SIZES = [1, 10, 100, 500];

const usd = (n: string | number) => parseUnits(String(n), 18);

async function gasOf(tx: Promise<{ wait: () => Promise<{ gasUsed: bigint } | null> }>): Promise<number> {
  const receipt = await (await tx).wait();
  return Number(receipt!.gasUsed);
}

// 20 random bytes: a new address without deriving a key (Wallet.createRandom is 1,000x slower).
function freshAddresses(n: number): string[] {
  return Array.from({ length: n }, () => getAddress(hexlify(randomBytes(20))));
}

/** Distinct amounts per row, as a CSV of payments has. */
function amountsFor(n: number): bigint[] {
  return Array.from({ length: n }, (_, i) => usd((1 + (i % 97) * 0.37).toFixed(2)));
}

async function main() {
  const [owner, payer, other, spender] = await ethers.getSigners();
  const usdx = (await upgrades.deployProxy(await ethers.getContractFactory("USDX"), [TOKEN_NAME, TOKEN_SYMBOL, owner.address], {
    kind: "uups",
  })) as unknown as USDX;
  const batch = (await (await ethers.getContractFactory("BatchPayments")).deploy(await usdx.getAddress())) as unknown as BatchPayments;
  for (const role of ["MINTER_ROLE", "BURNER_ROLE", "BLOCKLIST_ROLE", "ORACLE_ROLE"] as const)
    await usdx.grantRole(ROLES[role], owner.address);
  await usdx.mint(payer.address, usd(100_000_000));
  await usdx.mint(other.address, usd(1_000));
  // Realistic state: a multiplier above 1.0, as on the seeded chain.
  await usdx.setRewardMultiplier(usd("1.015"));

  // ---------------------------------------------------------------- single operations
  const single: [string, number][] = [];
  const funded = other.address;
  single.push(["transfer, new recipient", await gasOf(usdx.connect(payer).transfer(Wallet.createRandom().address, usd(10)))]);
  single.push(["transfer, funded recipient", await gasOf(usdx.connect(payer).transfer(funded, usd(10)))]);
  await usdx.connect(payer).approve(spender.address, usd(1_000_000));
  single.push([
    "transferFrom, new recipient",
    await gasOf(usdx.connect(spender).transferFrom(payer.address, Wallet.createRandom().address, usd(10))),
  ]);
  single.push(["transferFrom, funded recipient", await gasOf(usdx.connect(spender).transferFrom(payer.address, funded, usd(10)))]);
  single.push(["approve", await gasOf(usdx.connect(payer).approve(other.address, usd(5)))]);
  single.push(["mint, new recipient", await gasOf(usdx.mint(Wallet.createRandom().address, usd(10)))]);
  single.push(["mint, funded recipient", await gasOf(usdx.mint(funded, usd(10)))]);
  single.push(["burn", await gasOf(usdx.burn(funded, usd(1)))]);
  const blocked = Wallet.createRandom().address;
  single.push(["blockAccount", await gasOf(usdx.blockAccount(blocked))]);
  single.push(["unblockAccount", await gasOf(usdx.unblockAccount(blocked))]);
  single.push(["setRewardMultiplier", await gasOf(usdx.setRewardMultiplier(usd("1.016")))]);
  single.push(["addRewardMultiplier", await gasOf(usdx.addRewardMultiplier(usd("0.0001")))]);
  const transferNew = single[0][1];
  const transferFunded = single[1][1];

  console.log("\nUSDX operations (gas used, including the 21,000 of every transaction)\n");
  console.log(
    formatTable(
      ["operation", "gas"],
      single.map(([op, gas]) => [op, gas.toLocaleString("en-US")]),
    ),
  );

  // ---------------------------------------------------------------- batch payments
  const batchAddress = await batch.getAddress();
  const ref = encodeBytes32String("bench");
  const results: { n: number; kind: string; gas: number; single: number }[] = [];
  for (const n of BATCH_SIZES) {
    const recipients = freshAddresses(n);
    const amounts = amountsFor(n);
    const total = amounts.reduce((a, b) => a + b, 0n);
    // An exact allowance, as a permit for the job gives: each payment spends part of it.
    await usdx.connect(payer).approve(batchAddress, total);
    results.push({ n, kind: "new", gas: await gasOf(batch.connect(payer).pay(recipients, amounts, ref)), single: n * transferNew });
    await usdx.connect(payer).approve(batchAddress, total);
    results.push({ n, kind: "funded", gas: await gasOf(batch.connect(payer).pay(recipients, amounts, ref)), single: n * transferFunded });
  }

  // The permit path: what the first chunk's signature adds.
  {
    const n = 100;
    const recipients = freshAddresses(n);
    const amounts = amountsFor(n);
    const total = amounts.reduce((a, b) => a + b, 0n);
    await usdx.connect(payer).approve(batchAddress, 0);
    const deadline = BigInt((await ethers.provider.getBlock("latest"))!.timestamp + 3600);
    const { chainId } = await ethers.provider.getNetwork();
    const message = { owner: payer.address, spender: batchAddress, value: total, nonce: await usdx.nonces(payer.address), deadline };
    const sig = Signature.from(await payer.signTypedData(permitDomain(chainId, await usdx.getAddress()), PERMIT_TYPES, message));
    const gas = await gasOf(batch.connect(payer).payWithPermit(recipients, amounts, ref, total, deadline, sig.v, sig.r, sig.s));
    results.push({ n, kind: "new + permit", gas, single: n * transferNew });
  }

  console.log(
    `\nBatch payments: per recipient = total / recipients; bound for a new recipient = ${NEW_RECIPIENT_BOUND.toLocaleString("en-US")}\n`,
  );
  console.log(
    formatTable(
      ["recipients", "recipients are", "total gas", "per recipient", "x bound", "as single transfers", "batch / single"],
      results.map((r) => [
        String(r.n),
        r.kind,
        r.gas.toLocaleString("en-US"),
        Math.round(r.gas / r.n).toLocaleString("en-US"),
        (r.gas / r.n / NEW_RECIPIENT_BOUND).toFixed(3),
        r.single.toLocaleString("en-US"),
        (r.gas / r.single).toFixed(3),
      ]),
    ),
  );

  // Marginal cost of one more new recipient, from the 100- and 500-recipient batches.
  const g100 = results.find((r) => r.n === 100 && r.kind === "new")!.gas;
  const g500 = results.find((r) => r.n === 500 && r.kind === "new")!.gas;
  const marginal = (g500 - g100) / 400;
  const fixed = g100 - 100 * marginal;
  const perRecipient100 = g100 / 100;
  const ratio = perRecipient100 / NEW_RECIPIENT_BOUND;
  const target = TARGET_RATIO * NEW_RECIPIENT_BOUND;
  const met = perRecipient100 <= target;
  console.log(
    `\nmarginal gas per new recipient: ${Math.round(marginal).toLocaleString("en-US")} (${(marginal / NEW_RECIPIENT_BOUND).toFixed(3)} x bound); fixed cost of a chunk: ${Math.round(fixed).toLocaleString("en-US")}`,
  );
  console.log(
    `target: a new recipient in a batch of 100 costs at most ${TARGET_RATIO} x bound = ${target.toLocaleString("en-US")} gas: ` +
      `${Math.round(perRecipient100).toLocaleString("en-US")} gas, ${ratio.toFixed(3)} x bound: ${met ? "met" : "MISSED"}`,
  );

  // Largest chunk of new recipients. A 30,000,000-gas chunk cannot be sent as one transaction
  // since Osaka, so that figure comes from the linear model; the per-transaction figure is
  // confirmed with estimateGas on a real chunk of that size.
  const predicted = (limit: number) => Math.floor((limit - fixed) / marginal);
  console.log(
    `largest chunk in a ${REFERENCE_BLOCK_GAS_LIMIT.toLocaleString("en-US")}-gas block (linear model): ${predicted(REFERENCE_BLOCK_GAS_LIMIT)} new recipients`,
  );
  await usdx.connect(payer).approve(batchAddress, MaxUint256);
  let n = predicted(TRANSACTION_GAS_CAP);
  let confirmed: number | null = null;
  for (let attempt = 0; attempt < 20 && confirmed === null; attempt++) {
    const gas = await batch
      .connect(payer)
      .pay.estimateGas(freshAddresses(n), amountsFor(n), ref)
      .then(Number)
      .catch(() => null);
    if (gas !== null && gas <= TRANSACTION_GAS_CAP) confirmed = gas;
    else n -= gas === null ? Math.ceil(n * 0.01) : Math.ceil((gas - TRANSACTION_GAS_CAP) / marginal);
  }
  console.log(
    `largest chunk under the per-transaction cap of ${TRANSACTION_GAS_CAP.toLocaleString("en-US")} gas (EIP-7825, Osaka; Sepolia and Hardhat enforce it): ` +
      (confirmed === null ? "not confirmed" : `${n} new recipients (estimateGas: ${confirmed.toLocaleString("en-US")})`),
  );
  if (!met) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
