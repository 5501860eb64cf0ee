import { act, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { renderAtHome, testConfig } from "@/test/render";
import { useTxModal } from "@/lib/tx/store";
import { TransactionStatusModal } from "./TransactionStatusModal";

const HASH = `0x${"ab".repeat(32)}`;
const sepolia = {
  ...testConfig,
  network: "sepolia" as const,
  chainId: 11155111,
  networkLabel: "Sepolia",
  explorerUrl: "https://sepolia.etherscan.io",
  confirmations: 5,
};

describe("the transaction status modal", () => {
  beforeEach(() => useTxModal.getState().hide());

  it("walks through pending (wallet, then mined), confirming (blocks seen of those needed) and confirmed, with Sepolia's explorer link", async () => {
    renderAtHome(<TransactionStatusModal />, sepolia);
    act(() => useTxModal.setState({ isOpen: true, status: "pending", action: "Transfer 3 USDX to 0x3C44...93BC" }));
    expect(await screen.findByRole("heading", { name: "Transaction pending" })).toBeInTheDocument();
    expect(screen.getByText("Confirm the transaction in your wallet...")).toBeInTheDocument();

    act(() => useTxModal.setState({ transactionHash: HASH }));
    expect(screen.getByText("Waiting for the transaction to be mined...")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /View on block explorer/ })).toHaveAttribute("href", `https://sepolia.etherscan.io/tx/${HASH}`);

    act(() => useTxModal.setState({ status: "confirming", confirmations: { block: 7012345, seen: 2, needed: 5 } }));
    expect(screen.getByRole("heading", { name: "Transaction confirming" })).toBeInTheDocument();
    expect(screen.getByText("Included in block 7,012,345. Waiting for confirmations: 2 of 5...")).toBeInTheDocument();
    expect(screen.getByRole("progressbar", { name: "Confirmations" })).toHaveAttribute("aria-valuetext", "2 of 5 confirmations");

    act(() => useTxModal.setState({ status: "success", confirmations: null }));
    expect(screen.getByRole("heading", { name: "Transaction confirmed" })).toBeInTheDocument();
    expect(screen.getByText("Your transaction was confirmed.")).toBeInTheDocument();
    expect(screen.queryByRole("progressbar")).toBeNull();
  });

  it("says 'Checking transaction' during the dry run, and 'Transaction not sent' with the reason when it stops the write", async () => {
    renderAtHome(<TransactionStatusModal />, testConfig);
    act(() => useTxModal.setState({ isOpen: true, status: "checking", action: "Mint 1 USDX to 0x3C44...93BC" }));
    expect(await screen.findByRole("heading", { name: "Checking transaction" })).toBeInTheDocument();
    expect(screen.getByText("Checking the transaction against the latest block...")).toBeInTheDocument();
    expect(screen.queryByText("Confirm the transaction in your wallet...")).toBeNull();

    const reason =
      "USDX is paused: no tokens can be transferred, minted or burned until it is unpaused. Nothing was sent: your wallet was not asked to sign.";
    act(() => useTxModal.setState({ status: "not-sent", errorMessage: reason }));
    expect(screen.getByRole("heading", { name: "Transaction not sent" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent(reason);
    expect(screen.queryByRole("link")).toBeNull();
  });
});
