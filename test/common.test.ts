import { expect } from "chai";
import { Interface, ZeroHash, formatUnits, getAddress, hexlify, id, parseUnits, randomBytes } from "ethers";
import { BatchPayments__factory, USDX__factory } from "@bindings";
import { isValidAddress, parseAddress, shortAddress } from "@common/addresses";
import { exactTokenAmount, formatTokenAmount, parsePositiveTokenAmount, parseTokenAmount, transferMoved } from "@common/amounts";
import { decodeRevertData, describeContractError, describeError, isUserRejection } from "@common/contractErrors";
import { validateManifest } from "@common/manifest";
import { chainIdHex, localRpcPort, SEPOLIA } from "@common/networks";
import { parseRoleName, ROLES, roleNameOfHash } from "@common/roles";

describe("common: token amounts", () => {
  it("parses plain decimals into base units", () => {
    expect(parseTokenAmount("12.5")).to.equal(12_500000000000000000n);
    expect(parseTokenAmount("0.01")).to.equal(10n ** 16n);
    expect(parseTokenAmount(".5")).to.equal(5n * 10n ** 17n);
    expect(parseTokenAmount("7.")).to.equal(7n * 10n ** 18n);
    expect(parseTokenAmount(" 1000 ")).to.equal(1000n * 10n ** 18n);
    expect(parseTokenAmount("0.000000000000000001")).to.equal(1n);
  });

  for (const [input, why] of [
    ["", /empty/],
    ["-1", /plain decimal/],
    ["1e18", /plain decimal/],
    ["1,000", /plain decimal/],
    ["0x10", /plain decimal/],
    ["1.2.3", /plain decimal/],
    ["abc", /plain decimal/],
    ["0.0000000000000000001", /19 decimals/],
  ] as const) {
    it(`refuses '${input}' saying what is wrong`, () => {
      expect(() => parseTokenAmount(input)).to.throw(why);
    });
  }

  it("refuses zero where an amount must be positive, with the spec's text", () => {
    expect(() => parsePositiveTokenAmount("0.00")).to.throw("Please enter a valid amount greater than 0");
  });

  it("parses and writes back exactly as ethers' parseUnits and formatUnits do", () => {
    for (let i = 0; i < 300; i++) {
      const raw = BigInt(hexlify(randomBytes(1 + (i % 16))));
      const text = formatUnits(raw, 18).replace(/\.0$/, "");
      expect(exactTokenAmount(raw), text).to.equal(text);
      expect(parseTokenAmount(text), text).to.equal(parseUnits(text, 18));
    }
    expect(exactTokenAmount(0n)).to.equal("0");
    expect(exactTokenAmount(-15n * 10n ** 17n)).to.equal("-1.5");
    expect(parseTokenAmount("0007.50")).to.equal(75n * 10n ** 17n);
  });

  it("formats to fixed places, rounding down", () => {
    expect(formatTokenAmount(1_999999999999999999n, 2)).to.equal("1.99");
    expect(formatTokenAmount(10n ** 18n, 4)).to.equal("1.0000");
    expect(formatTokenAmount(0n, 2)).to.equal("0.00");
    expect(formatTokenAmount(-15n * 10n ** 17n, 2)).to.equal("-1.50");
    expect(formatTokenAmount(123n * 10n ** 18n, 0)).to.equal("123");
  });
});

describe("common: what a Transfer moved (transferMoved)", () => {
  const at = (multiplier: string) => parseUnits(multiplier, 18);

  it("at 1.0 a transfer moves exactly its value", () => {
    expect(transferMoved(1n)).to.deep.equal({ shares: 1n, amount: 1n });
    expect(transferMoved(parseUnits("31.07", 18))).to.deep.equal({ shares: parseUnits("31.07", 18), amount: parseUnits("31.07", 18) });
  });

  it("a shortfall under one wei is no shortfall: 31.07 at 1.015 falls 0.2 wei short and reads as sent", () => {
    const value = parseUnits("31.07", 18);
    const moved = transferMoved(value, at("1.015"));
    expect(moved.shares).to.equal((value * 10n ** 18n) / at("1.015"));
    expect(moved.shares * at("1.015")).to.equal(value * 10n ** 18n - 2n * 10n ** 17n); // 0.2 wei short, exactly
    expect(moved.amount).to.equal(value);
  });

  it("from one wei short on, the amount is the shares' worth rounded down; no share moved is 0", () => {
    expect(transferMoved(1n, at("1.5"))).to.deep.equal({ shares: 0n, amount: 0n });
    expect(transferMoved(2n, at("1.5"))).to.deep.equal({ shares: 1n, amount: 2n }); // 1.5 wei: half a wei short
    expect(transferMoved(4n, at("1.5"))).to.deep.equal({ shares: 2n, amount: 3n }); // 3 wei: one short
    expect(transferMoved(3n, at("2"))).to.deep.equal({ shares: 1n, amount: 2n });
    // At a huge multiplier a share is worth a whole token: 1.5 tokens move one share, worth 1.
    expect(transferMoved(parseUnits("1.5", 18), 10n ** 36n)).to.deep.equal({ shares: 1n, amount: parseUnits("1", 18) });
  });
});

describe("common: addresses", () => {
  it("accepts 0x plus 40 hex characters, any case with a valid checksum", () => {
    expect(parseAddress("0x70997970c51812dc3a010c7d01b50e0d17dc79c8")).to.equal("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(parseAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")).to.equal("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(isValidAddress("0x70997970c51812dc3a010c7d01b50e0d17dc79c8")).to.equal(true);
  });

  it("refuses short, long, non-hex and empty input", () => {
    for (const bad of [
      "",
      "0x",
      "0x1234",
      "70997970c51812dc3a010c7d01b50e0d17dc79c8",
      "0x70997970c51812dc3a010c7d01b50e0d17dc79c8aa",
      "0xZZ997970c51812dc3a010c7d01b50e0d17dc79c8",
    ]) {
      expect(isValidAddress(bad), bad).to.equal(false);
      expect(() => parseAddress(bad), bad).to.throw(/0x followed by 40 hex characters/);
    }
  });

  it("catches a typo in a checksummed address", () => {
    expect(() => parseAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79c8")).to.throw(/checksum/);
  });

  it("checksums exactly as ethers does, for all-lower, all-upper and checksummed input", () => {
    for (let i = 0; i < 300; i++) {
      const expected = getAddress(hexlify(randomBytes(20)));
      const hex = expected.slice(2);
      for (const input of [expected, `0x${hex.toLowerCase()}`, `0x${hex.toUpperCase()}`])
        expect(parseAddress(input), input).to.equal(expected);
    }
  });

  it("shortens as first 6, ellipsis, last 4; empty stays empty", () => {
    expect(shortAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")).to.equal("0x7099...79C8");
    expect(shortAddress("")).to.equal("");
  });
});

describe("common: roles and networks", () => {
  it("hashes roles as the contract does: zero for DEFAULT_ADMIN, keccak256 of the name otherwise", () => {
    expect(ROLES.DEFAULT_ADMIN_ROLE).to.equal(ZeroHash);
    expect(ROLES.MINTER_ROLE).to.equal(id("MINTER_ROLE"));
    expect(roleNameOfHash(id("PAUSE_ROLE"))).to.equal("PAUSE_ROLE");
  });

  it("reads a role the way people type it, else 'Invalid role: {role}'", () => {
    expect(parseRoleName("minter")).to.equal("MINTER_ROLE");
    expect(parseRoleName("PAUSE_ROLE")).to.equal("PAUSE_ROLE");
    expect(parseRoleName("admin")).to.equal("DEFAULT_ADMIN_ROLE");
    expect(parseRoleName("default_admin")).to.equal("DEFAULT_ADMIN_ROLE");
    expect(() => parseRoleName("owner")).to.throw("Invalid role: owner");
  });

  it("gives Sepolia's chain id in the wallet's hex form", () => {
    expect(chainIdHex(SEPOLIA.chainId)).to.equal("0xaa36a7");
  });

  it("reads LOCAL_RPC_PORT, refusing what is not a port", () => {
    expect(localRpcPort({})).to.equal(8545);
    expect(localRpcPort({ LOCAL_RPC_PORT: "9545" })).to.equal(9545);
    expect(() => localRpcPort({ LOCAL_RPC_PORT: "http" })).to.throw(/LOCAL_RPC_PORT must be a port number/);
    expect(() => localRpcPort({ LOCAL_RPC_PORT: "70000" })).to.throw(/LOCAL_RPC_PORT/);
  });
});

describe("common: deployment manifest", () => {
  const good = {
    network: "localhost",
    chainId: 31337,
    proxy: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
    implementation: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    owner: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    batchPayments: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
    deploymentBlock: 2,
    deploymentBlockHash: "0x" + "ab".repeat(32),
    deployedAt: "2026-11-21T12:00:00.000Z",
  };

  it("accepts a complete manifest and checksums its addresses", () => {
    expect(validateManifest(good, "m.json").proxy).to.equal("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512");
  });

  for (const [field, value] of [
    ["chainId", "31337"],
    ["proxy", "0x1234"],
    ["batchPayments", undefined],
    ["deploymentBlock", -1],
    ["deploymentBlockHash", "0x12"],
    ["deployedAt", "yesterday"],
    ["network", ""],
  ] as const) {
    it(`names '${field}' when it is wrong`, () => {
      expect(() => validateManifest({ ...good, [field]: value }, "m.json")).to.throw(new RegExp(`m.json: '${field}'`));
    });
  }

  it("keeps a fork's description when present, and leaves it out when absent", () => {
    const fork = { chainId: 11155111, name: "Sepolia", block: 7012345 };
    expect(validateManifest({ ...good, fork }, "m.json").fork).to.deep.equal(fork);
    expect(validateManifest(good, "m.json")).to.not.have.property("fork");
  });

  for (const [field, fork] of [
    ["fork", "Sepolia"],
    ["fork.chainId", { chainId: 0, name: "Sepolia", block: 1 }],
    ["fork.name", { chainId: 11155111, name: "", block: 1 }],
    ["fork.block", { chainId: 11155111, name: "Sepolia", block: 1.5 }],
  ] as const) {
    it(`names '${field}' when the fork's description is wrong`, () => {
      expect(() => validateManifest({ ...good, fork }, "m.json")).to.throw(new RegExp(`m.json: '${field.replace(".", "\\.")}'`));
    });
  }

  it("refuses what is not an object", () => {
    expect(() => validateManifest([] as unknown, "m.json")).to.throw(/'network'/);
    expect(() => validateManifest(null, "m.json")).to.throw(/not a JSON object/);
  });
});

describe("common: contract errors in words", () => {
  const all = [...new Interface(USDX__factory.abi).fragments, ...new Interface(BatchPayments__factory.abi).fragments].filter(
    (f) => f.type === "error",
  );

  it("has a sentence of its own for every custom error of USDX and BatchPayments", () => {
    expect(all.length).to.be.greaterThan(25);
    for (const fragment of all) {
      const args = (fragment as unknown as { inputs: { type: string }[] }).inputs.map((i) =>
        i.type === "address" ? "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" : i.type === "bytes32" ? ROLES.MINTER_ROLE : 10n ** 18n,
      );
      const name = (fragment as unknown as { name: string }).name;
      expect(describeContractError(name, args), name).not.to.match(/^The contract refused the call \(/);
    }
  });

  it("decodes revert data by selector, with arguments in tokens and role names", () => {
    const iface = new Interface(USDX__factory.abi);
    const data = iface.encodeErrorResult("ERC20InsufficientBalance", [
      "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      15n * 10n ** 17n,
      2n * 10n ** 18n,
    ]);
    const decoded = decodeRevertData(data)!;
    expect(decoded.name).to.equal("ERC20InsufficientBalance");
    expect(decoded.message).to.equal(
      "Insufficient balance: 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 has 1.5 USDX, and 2 USDX is needed.",
    );
    const denied = iface.encodeErrorResult("AccessControlUnauthorizedAccount", [
      "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      ROLES.ORACLE_ROLE,
    ]);
    expect(decodeRevertData(denied)!.message).to.contain("does not hold ORACLE_ROLE");
  });

  it("says in words why a mint or a multiplier would overflow the supply, or the multiplier itself", () => {
    const iface = new Interface(USDX__factory.abi);
    const max = 2n ** 256n - 1n;
    const mint = decodeRevertData(iface.encodeErrorResult("USDXSupplyOverflow", [1500n * 10n ** 18n, 5n, 15n * 10n ** 17n]))!;
    expect(mint.name).to.equal("USDXSupplyOverflow");
    expect(mint.message).to.equal(
      "Cannot mint that much: the 1500 shares in existence plus the 0.000000000000000005 new ones, at a reward multiplier of 1.5, would be worth more than the largest amount USDX can count (2^256 - 1 base units).",
    );
    const set = decodeRevertData(iface.encodeErrorResult("USDXSupplyOverflow", [1500n * 10n ** 18n, 0n, max]))!;
    expect(set.message).to.match(
      /^A reward multiplier of 115792089237316195423570985008687907853269984665640564039457\.584007913129639935 is too large: the 1500 shares in existence would be worth more than/,
    );
    const add = decodeRevertData(iface.encodeErrorResult("USDXRewardMultiplierOverflow", [max, 10n ** 16n]))!;
    expect(add.message).to.equal(
      "Cannot add 0.01 to the reward multiplier of 115792089237316195423570985008687907853269984665640564039457.584007913129639935: the result would be larger than the contract can store (2^256 - 1).",
    );
  });

  it("decodes the built-in Error(string) and Panic(uint256)", () => {
    const iface = new Interface(["error Error(string)", "error Panic(uint256)"]);
    expect(decodeRevertData(iface.encodeErrorResult("Error", ["plain reason"]))!.message).to.equal("plain reason");
    expect(decodeRevertData(iface.encodeErrorResult("Panic", [0x11]))!.message).to.contain("out of range");
  });

  it("finds revert data nested in what a wallet or node throws", () => {
    const data = new Interface(USDX__factory.abi).encodeErrorResult("USDXPausedTransfers", []);
    expect(describeError({ message: "execution reverted", info: { error: { data } } })).to.contain("USDX is paused");
    expect(describeError({ error: { data: { data } } })).to.contain("USDX is paused");
  });

  it("says so when the wallet's user rejected the request", () => {
    expect(isUserRejection({ code: "ACTION_REJECTED" })).to.equal(true);
    expect(describeError({ error: { code: 4001, message: "User denied" } })).to.equal("You rejected the request in your wallet.");
  });

  it("falls back to the error's own short message, or 'Unknown error'", () => {
    expect(describeError({ data: "0xdeadbeef" })).to.contain("unknown error (0xdeadbeef)");
    expect(describeError({ shortMessage: "could not coalesce error", message: "long text" })).to.equal("could not coalesce error");
    expect(describeError(undefined)).to.equal("Unknown error");
  });
});
