import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderAtHome, testConfig } from "@/test/render";
import { Header } from "./Header";

const header = (config = testConfig) => renderAtHome(<Header menuButton={null} />, config);

describe("the header's network badge", () => {
  it("names the network the dashboard runs on: 'Sepolia' there, 'Hardhat Local' on the local chain", () => {
    header({ ...testConfig, network: "sepolia", chainId: 11155111, networkLabel: "Sepolia" });
    expect(within(screen.getByRole("banner")).getByLabelText("Network Sepolia")).toHaveTextContent("Sepolia");
  });

  it("says what a fork forks, and where", () => {
    header({ ...testConfig, fork: { chainId: 11155111, name: "Sepolia", block: 7012345 } });
    expect(within(screen.getByRole("banner")).getByLabelText("Network Sepolia fork @ 7,012,345")).toBeInTheDocument();
  });

  it("shows the local chain as such", () => {
    header();
    expect(within(screen.getByRole("banner")).getByLabelText("Network Hardhat Local")).toHaveTextContent("Hardhat Local");
  });
});
