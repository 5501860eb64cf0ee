import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { Contract, Wallet } from "ethers";
import { ROLES } from "@common/roles";
import {
  SAFE_INTERFACE,
  decodeMultiSend,
  execTransactionArgs,
  multiSendSafeTx,
  packSignatures,
  plainSafeTx,
  recoverSafeSigner,
  rejectionSafeTx,
  safeTxHash,
  safeTypedData,
  type SafeTx,
} from "@common/safe";
import { describeSafeCall, decodeTokenCall, encodeTokenCall } from "@common/safeCalls";
import { describeError } from "@common/contractErrors";
import { createSafe, deploySafeContracts } from "../server/src/services/scenarios/safeContracts";
import { deployFixture, mult, usd } from "./helpers/fixtures";

/**
 * common/safe.ts against the real Safe v1.4.1 (Safe's published bytecode): the hash the dashboard
 * has owners sign is the one the contract computes, and signatures packed by it execute.
 */

async function safeFixture() {
  const f = await deployFixture();
  const [owner1, owner2, owner3] = [f.owner, f.minter, f.stranger];
  const contracts = await deploySafeContracts(f.owner);
  const address = await createSafe(f.owner, contracts, [owner1.address, owner2.address, owner3.address], 2);
  await f.usdx.grantRole(ROLES.MINTER_ROLE, address);
  await f.usdx.grantRole(ROLES.ORACLE_ROLE, address);
  const safe = new Contract(address, SAFE_INTERFACE, ethers.provider);
  const { chainId } = await ethers.provider.getNetwork();
  return { ...f, safe, address, chainId, contracts, owners: [owner1, owner2, owner3] };
}

type Signer = Awaited<ReturnType<typeof safeFixture>>["owner"];

async function sign(signer: Signer | Wallet, chainId: bigint, safe: string, tx: SafeTx): Promise<{ owner: string; signature: string }> {
  const { domain, types, message } = safeTypedData(chainId, safe, tx);
  return { owner: await signer.getAddress(), signature: await signer.signTypedData(domain, { SafeTx: [...types.SafeTx] }, message) };
}

describe("common/safe.ts: SafeTx hashes and signatures, checked by Safe v1.4.1 itself", () => {
  it("hashes a SafeTx exactly as the Safe's getTransactionHash does, for a mint, a rejection and a later nonce", async () => {
    const { safe, address, chainId, usdx, alice } = await loadFixture(safeFixture);
    const token = await usdx.getAddress();
    for (const tx of [
      plainSafeTx(token, encodeTokenCall("mint", [alice.address, usd(250)]), 0),
      rejectionSafeTx(address, 0),
      plainSafeTx(token, encodeTokenCall("setRewardMultiplier", [mult("1.02")]), 7),
    ]) {
      const onChain = await safe.getTransactionHash(...execTransactionArgs(tx, "0x").slice(0, 9), tx.nonce);
      expect(safeTxHash(chainId, address, tx)).to.equal(onChain);
    }
  });

  it("executes a mint signed by two owners through eth_signTypedData, packed in owner order", async () => {
    const { safe, address, chainId, usdx, alice, owners } = await loadFixture(safeFixture);
    const tx = plainSafeTx(await usdx.getAddress(), encodeTokenCall("mint", [alice.address, usd(250)]), await safe.nonce());
    const hash = safeTxHash(chainId, address, tx);
    // Signed in the order opposite to the owners' addresses: packSignatures sorts them.
    const signatures = [await sign(owners[2], chainId, address, tx), await sign(owners[0], chainId, address, tx)];
    for (const s of signatures) expect(recoverSafeSigner(hash, s.signature)).to.equal(s.owner);
    await (await safe.connect(owners[1]).getFunction("execTransaction")(...execTransactionArgs(tx, packSignatures(signatures)))).wait();
    expect(await usdx.balanceOf(alice.address)).to.equal(usd(250));
    expect(await safe.nonce()).to.equal(1n);
  });

  it("refuses one signature short of the threshold, and a non-owner's, with Safe's codes in words", async () => {
    const { safe, address, chainId, usdx, alice, owners, bob } = await loadFixture(safeFixture);
    const tx = plainSafeTx(await usdx.getAddress(), encodeTokenCall("mint", [alice.address, usd(1)]), 0);
    const exec = safe.connect(owners[0]).getFunction("execTransaction");
    const one = await sign(owners[0], chainId, address, tx);
    const error1 = await exec.staticCall(...execTransactionArgs(tx, packSignatures([one]))).catch((e: unknown) => e);
    expect(describeError(error1)).to.equal("The signatures are too short for the Safe's threshold.");
    const stranger = await sign(bob, chainId, address, tx);
    const error2 = await exec.staticCall(...execTransactionArgs(tx, packSignatures([one, stranger]))).catch((e: unknown) => e);
    expect(describeError(error2)).to.match(/^A signature is not from a current owner of the Safe/);
  });

  it("pays a batch chunk from the Safe: MultiSendCallOnly runs approve and pay in one execution, and BatchPaid names the Safe as payer", async () => {
    const { safe, address, chainId, contracts, usdx, batch, minter, alice, bob, carol, owners } = await loadFixture(safeFixture);
    await usdx.connect(minter).mint(address, usd(100));
    const token = await usdx.getAddress();
    const batchAddress = await batch.getAddress();
    const recipients = [alice.address, bob.address, carol.address];
    const amounts = [usd(1), usd("2.5"), usd(3)];
    const reference = ethers.id("job 1 chunk 0");
    const calls = [
      { to: token, data: usdx.interface.encodeFunctionData("approve", [batchAddress, usd("6.5")]) },
      { to: batchAddress, data: batch.interface.encodeFunctionData("pay", [recipients, amounts, reference]) },
    ];
    const tx = multiSendSafeTx(contracts.multiSendCallOnly, calls, 0);
    expect(decodeMultiSend(tx.data)).to.deep.equal(calls.map((c) => ({ to: c.to, data: c.data.toLowerCase() })));
    const signatures = [await sign(owners[0], chainId, address, tx), await sign(owners[1], chainId, address, tx)];
    const receipt = await (
      await safe.connect(owners[0]).getFunction("execTransaction")(...execTransactionArgs(tx, packSignatures(signatures)))
    ).wait();
    const paid = receipt.logs
      .map((log: { topics: string[]; data: string }) => batch.interface.parseLog(log))
      .find((l: { name: string } | null) => l?.name === "BatchPaid");
    expect(paid.args.payer).to.equal(address);
    expect([paid.args.paymentRef, paid.args.recipientCount, paid.args.total]).to.deep.equal([reference, 3n, usd("6.5")]);
    expect(await usdx.balanceOf(bob.address)).to.equal(usd("2.5"));
    expect(await usdx.allowance(address, batchAddress)).to.equal(0n);
  });

  it("decodes no multiSend that packs a delegatecall, carries ether, or is cut short", () => {
    const to = "0x00000000000000000000000000000000000000aa";
    const good = multiSendSafeTx(to, [{ to, data: "0x1234" }], 0).data;
    expect(decodeMultiSend(good)).to.deep.equal([{ to: ethers.getAddress(to), data: "0x1234" }]);
    const inner = good.slice(10 + 128); // after the selector, the offset and the length words
    const withOperation = (op: string) => good.slice(0, 10 + 128) + op + inner.slice(2);
    expect(decodeMultiSend(withOperation("01"))).to.equal(null);
    expect(decodeMultiSend(good.slice(0, good.length - 64))).to.equal(null);
    expect(decodeMultiSend("0x")).to.equal(null);
  });

  it("recovers nobody from a malformed, eth_sign-style or high-s signature", () => {
    const hash = ethers.id("a SafeTx");
    const wallet = Wallet.createRandom();
    const good = wallet.signingKey.sign(hash).serialized;
    expect(recoverSafeSigner(hash, good)).to.equal(wallet.address);
    expect(recoverSafeSigner(hash, "0x1234")).to.equal(null);
    expect(recoverSafeSigner(hash, good.slice(0, -2) + "1f")).to.equal(null); // v 31: Safe reads it as eth_sign
    const n = BigInt("0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
    const s = BigInt("0x" + good.slice(66, 130));
    const flippedV = good.slice(130) === "1b" ? "1c" : "1b";
    const highS = good.slice(0, 66) + (n - s).toString(16).padStart(64, "0") + flippedV;
    expect(recoverSafeSigner(hash, highS)).to.equal(null);
  });
});

describe("common/safeCalls.ts: a proposal's call in words", () => {
  const token = "0x00000000000000000000000000000000000000aa";
  const safe = "0x00000000000000000000000000000000000000bb";
  const alice = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";

  it("names each write of USDX as the issue's examples do", () => {
    const words = (data: string, multiplier?: bigint) => describeSafeCall({ to: token, data }, { token, safe, multiplier });
    expect(words(encodeTokenCall("mint", [alice, usd(250)]))).to.equal("Mint 250.00 USDX to 0x14dC...9955");
    expect(words(encodeTokenCall("setRewardMultiplier", [mult("1.02")]), mult("1.015"))).to.equal(
      "Set the reward multiplier to 1.0200x (+0.49%)",
    );
    expect(words(encodeTokenCall("setRewardMultiplier", [mult("1.0")]), mult("1.015"))).to.equal(
      "Set the reward multiplier to 1.0000x (-1.47%)",
    );
    expect(words(encodeTokenCall("pause", []))).to.equal("Pause USDX: stop all transfers, mints and burns");
    expect(words(encodeTokenCall("grantRole", [ROLES.MINTER_ROLE, alice]))).to.equal("Grant MINTER_ROLE to 0x14dC...9955");
    expect(describeSafeCall({ to: safe, data: "0x" }, { token, safe })).to.equal("Reject: use up this nonce without doing anything");
  });

  it("decodes only the exact encoding of a proposable write", () => {
    const mint = encodeTokenCall("mint", [alice, usd(1)]);
    expect(decodeTokenCall(mint)?.name).to.equal("mint");
    expect(decodeTokenCall(mint + "00")).to.equal(null);
    expect(decodeTokenCall("0xa9059cbb" + mint.slice(10))).to.equal(null); // transfer: not a role holder's write
    expect(decodeTokenCall("0x")).to.equal(null);
  });
});
