import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { renderAtHome, testConfig } from "@/test/render";
import { Frame } from "./Frame";

// The frame's chain reads, as the chain would answer them: no roles; the token paused or not.
const token = vi.hoisted(() => ({ paused: false }));
vi.mock("@/lib/chain/queries", () => ({
  useMyRoles: () => ({ isAdmin: false }),
  useTokenFigures: () => ({ data: { paused: token.paused } }),
}));

const SEPOLIA = { ...testConfig, network: "sepolia" as const, chainId: 11155111, chainIdHex: "0xaa36a7", networkLabel: "Sepolia" };
const links = () =>
  within(screen.getByRole("navigation", { name: "Main" }))
    .getAllByRole("link")
    .map((link) => link.textContent);

beforeEach(() => {
  token.paused = false;
});

describe("the page frame", () => {
  it("links the Scenarios panel on the local chain only", () => {
    renderAtHome(<Frame />);
    expect(links()).toContain("Scenarios");
    expect(screen.getByRole("link", { name: "Scenarios" })).toHaveAttribute("href", "/scenarios");
  });

  it("has no Scenarios link on Sepolia", () => {
    renderAtHome(<Frame />, SEPOLIA);
    expect(links()).toContain("Settings");
    expect(links()).not.toContain("Scenarios");
  });

  it("shows the paused banner above every screen while USDX is paused, and none while it is active", () => {
    renderAtHome(<Frame />);
    expect(screen.queryByRole("status", { name: "USDX is paused" })).not.toBeInTheDocument();
    token.paused = true;
    renderAtHome(<Frame />);
    expect(screen.getByRole("status", { name: "USDX is paused" })).toHaveTextContent(
      "USDX is pausedNo tokens can be transferred, minted or burned until a PAUSE_ROLE holder unpauses it.",
    );
  });
});
