import { MaxUint256, encodeBytes32String, getAddress, hexlify, randomBytes, type JsonRpcSigner } from "ethers";
import { BatchPayments__factory, USDX__factory } from "@bindings";

// 20 random bytes: a new address without deriving a key (Wallet.createRandom is 1,000x slower).
export const randomAddress = () => getAddress(hexlify(randomBytes(20)));

/**
 * Fills the chain with real Transfers, as the API and holders benches need them: `txs` batch
 * payments of `perTx` fresh addresses each from `payer` (one approval, every payment sent before the
 * last is awaited), each row paid `amount(tx, row)`. Their events are the chain's own, so whatever
 * a bench then reads from the index is what a deployment would hold.
 */
export async function payFreshAddresses(
  payer: JsonRpcSigner,
  contracts: { proxy: string; batchPayments: string },
  options: { txs: number; perTx: number; reference: string; amount(tx: number, row: number): bigint },
): Promise<void> {
  const usdx = USDX__factory.connect(contracts.proxy, payer);
  const batch = BatchPayments__factory.connect(contracts.batchPayments, payer);
  await (await usdx.approve(contracts.batchPayments, MaxUint256)).wait();
  let nonce = await payer.getNonce();
  const sent = [];
  for (let i = 0; i < options.txs; i++) {
    const recipients = Array.from({ length: options.perTx }, randomAddress);
    const amounts = recipients.map((_, j) => options.amount(i, j));
    sent.push(
      await batch.pay(recipients, amounts, encodeBytes32String(`${options.reference}-${i}`), { nonce: nonce++, gasLimit: 16_000_000 }),
    );
  }
  await sent[sent.length - 1].wait();
}
