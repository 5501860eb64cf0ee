import { expect } from "chai";
import { HeadRing } from "../src/services/indexing/headRing";

/** Issue 30, part 3: what pushed heads tell the indexer without a read, and when they tell nothing. */
const hash = (fork: string, n: number) => `0x${fork}${n.toString(16).padStart(63, "0")}`;
const head = (n: number, fork = "a", parentFork = fork) => ({
  number: n,
  hash: hash(fork, n),
  parentHash: hash(parentFork, n - 1),
  timestamp: 1000 + n,
});

describe("Pushed heads kept linked by their parents (HeadRing)", () => {
  it("knows a block whose parents link it to the newest head: its hash and time", () => {
    const ring = new HeadRing();
    for (let n = 10; n <= 16; n++) ring.add(head(n));
    expect(ring.at(11)).to.deep.equal({ blockNumber: 11, blockHash: hash("a", 11), blockTime: 1011 });
    expect(ring.at(16)!.blockHash).to.equal(hash("a", 16));
    expect(ring.at(9), "older than any pushed head").to.equal(null);
    expect(ring.at(17), "newer than the newest").to.equal(null);
  });

  it("a lost head leaves the blocks below the gap unknown (they are read)", () => {
    const ring = new HeadRing();
    for (const n of [10, 11, 13, 14]) ring.add(head(n));
    expect(ring.at(13)).to.not.equal(null);
    expect(ring.at(11)).to.equal(null);
  });

  it("a head whose parent is not the kept one (a reorganisation) drops what it contradicts", () => {
    const ring = new HeadRing();
    for (let n = 10; n <= 14; n++) ring.add(head(n));
    // Block 14 again on another fork, whose parent 13 is another block too.
    ring.add(head(14, "b", "b"));
    expect(ring.at(13), "the old fork's 13 is not linked to the new head").to.equal(null);
    expect(ring.at(14)!.blockHash).to.equal(hash("b", 14));
  });

  it("a head at a lower height (a shorter fork) supersedes everything from its height up", () => {
    const ring = new HeadRing();
    for (let n = 10; n <= 14; n++) ring.add(head(n));
    ring.add(head(12, "c", "a"));
    expect(ring.at(13)).to.equal(null);
    expect(ring.at(12)!.blockHash).to.equal(hash("c", 12));
    expect(ring.at(11)!.blockHash, "its parent is the kept 11").to.equal(hash("a", 11));
  });

  it("forgets everything when told to (the heads went down)", () => {
    const ring = new HeadRing();
    for (let n = 10; n <= 12; n++) ring.add(head(n));
    ring.clear();
    expect(ring.at(12)).to.equal(null);
  });
});
