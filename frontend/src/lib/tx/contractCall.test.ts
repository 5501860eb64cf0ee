import { describe, expect, it } from "vitest";
import { JsonRpcProvider, type JsonRpcPayload, type JsonRpcResult } from "ethers";
import { BatchPayments__factory } from "@bindings/factories/contracts/BatchPayments__factory";
import { contractCall } from "./contractCall";

const PAYER = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";
const BOB = "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f";
const BATCH = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";

/** A real ethers provider whose node records each request and answers every eth_call with a uint256 of 0. */
class RecordingNode extends JsonRpcProvider {
  seen: JsonRpcPayload[] = [];
  async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    const payloads = Array.isArray(payload) ? payload : [payload];
    this.seen.push(...payloads);
    return payloads.map((p) => ({ id: p.id, result: `0x${"0".repeat(64)}` }));
  }
}

describe("a contract call declared once", () => {
  it("dry-runs the method with its arguments and its gas limit, from the given address at the latest block", async () => {
    const node = new RecordingNode("http://rpc.invalid", 31337, { staticNetwork: true, cacheTimeout: -1 });
    const batch = BatchPayments__factory.connect(BATCH, node);
    const ref = `0x${"01".repeat(32)}`;
    await contractCall(batch.pay, [[BOB], [5n], ref], { gasLimit: 500_000n }).staticCall({ from: PAYER, blockTag: "latest" });
    const [call] = node.seen.filter((p) => p.method === "eth_call");
    const [tx, blockTag] = call.params as [{ from: string; to: string; data: string; gas: string }, string];
    expect(blockTag).toBe("latest");
    expect(tx.from.toLowerCase()).toBe(PAYER.toLowerCase());
    expect(tx.to.toLowerCase()).toBe(BATCH.toLowerCase());
    expect(BigInt(tx.gas)).toBe(500_000n);
    expect(tx.data).toBe(batch.interface.encodeFunctionData("pay", [[BOB], [5n], ref]));
  });

  it("gives the same call's target and calldata without sending it (what a Safe proposal carries)", async () => {
    const node = new RecordingNode("http://rpc.invalid", 31337, { staticNetwork: true, cacheTimeout: -1 });
    const batch = BatchPayments__factory.connect(BATCH, node);
    const ref = `0x${"02".repeat(32)}`;
    const populated = await contractCall(batch.pay, [[BOB], [7n], ref], { gasLimit: 500_000n }).populate();
    expect(populated).toEqual({ to: BATCH, data: batch.interface.encodeFunctionData("pay", [[BOB], [7n], ref]) });
    expect(node.seen).toEqual([]);
  });
});
