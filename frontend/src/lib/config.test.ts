import { describe, expect, it } from "vitest";
import { networkBadgeLabel } from "./config";
import { testConfig } from "@/test/config";

describe("the network badge", () => {
  it("names the local chain by its label", () => {
    expect(networkBadgeLabel(testConfig())).toBe("Hardhat Local");
  });

  it("names a fork by the chain it forks and the fork block, digits grouped", () => {
    expect(networkBadgeLabel(testConfig({ fork: { chainId: 11155111, name: "Sepolia", block: 7012345 } }))).toBe(
      "Sepolia fork @ 7,012,345",
    );
    expect(networkBadgeLabel(testConfig({ fork: { chainId: 31337, name: "Hardhat Local", block: 12 } }))).toBe("Hardhat Local fork @ 12");
  });

  it("names Sepolia as Sepolia", () => {
    expect(networkBadgeLabel(testConfig({ network: "sepolia", chainId: 11155111, networkLabel: "Sepolia" }))).toBe("Sepolia");
  });
});
