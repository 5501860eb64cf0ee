import { expect } from "chai";
import { FreshRead } from "../src/lib/concurrency";

/** A read whose answers the test releases one at a time: each answer is the number of the read. */
function controlledRead() {
  const pending: (() => void)[] = [];
  let started = 0;
  const read = new FreshRead(() => {
    const n = ++started;
    return new Promise<number>((resolve) => pending.push(() => resolve(n)));
  });
  const settle = () => new Promise((r) => setImmediate(r));
  return { read, started: () => started, finishNext: async () => (pending.shift()!(), await settle()) };
}

describe("FreshRead: a read as new as its caller", () => {
  it("a caller arriving while a read is under way waits for the next one, which every such caller shares", async () => {
    const { read, started, finishNext } = controlledRead();
    const first = read.get();
    const second = read.get(); // arrived after read 1 began: read 1 may miss a write it is meant to see
    const third = read.get();
    expect(started()).to.equal(1);
    await finishNext();
    expect(await first).to.equal(1);
    expect(started()).to.equal(2); // one read for both latecomers
    await finishNext();
    expect(await second).to.equal(2);
    expect(await third).to.equal(2);
    // Nothing under way: the next caller starts a read of its own.
    const fourth = read.get();
    expect(started()).to.equal(3);
    await finishNext();
    expect(await fourth).to.equal(3);
  });

  it("a failed read fails its callers only; the next caller reads again", async () => {
    let calls = 0;
    const read = new FreshRead(async () => {
      calls++;
      if (calls === 1) throw new Error("the database is away");
      return calls;
    });
    const [failed, later] = [read.get(), read.get()];
    expect(await failed.catch((e: Error) => e.message)).to.equal("the database is away");
    expect(await later).to.equal(2);
    expect(await read.get()).to.equal(3);
  });
});
