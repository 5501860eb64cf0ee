import type { ReactNode } from "react";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useRpcSetting } from "@/lib/chain/rpc";
import { ConfigContext, type AppConfig } from "@/lib/config";
import { initialWalletState, useWallet } from "@/lib/wallet/store";
import { USDX__factory } from "@bindings/factories/contracts/USDX__factory";
import { parseTokenAmount } from "@common/amounts";
import BlockPage from "./BlockPage";
import TransactionPage from "./TransactionPage";
import { testConfig as makeTestConfig } from "@/test/config";

const mocks = vi.hoisted(() => ({ provider: null as unknown, readProvider: vi.fn() }));
vi.mock("@/lib/chain/contracts", () => ({ readProvider: (...args: unknown[]) => mocks.readProvider(...args) }));

const config: AppConfig = makeTestConfig({ devAccounts: null });

const HASH = "0x" + "ab".repeat(32);
const SENDER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const USDX = USDX__factory.createInterface();
const AMOUNT = parseTokenAmount("12.5");
const GWEI = 1_000_000_000n;

function transferTx() {
  return {
    hash: HASH,
    from: SENDER,
    to: config.contracts.proxy,
    data: USDX.encodeFunctionData("transfer", [RECIPIENT, AMOUNT]),
    value: 0n,
    nonce: 3,
    gasLimit: 80_000n,
    gasPrice: GWEI,
    blockNumber: 7,
  };
}

function transferReceipt(status = 1) {
  const log = USDX.encodeEventLog("Transfer", [SENDER, RECIPIENT, AMOUNT]);
  return {
    status,
    blockNumber: 7,
    gasUsed: 51_234n,
    gasPrice: GWEI,
    contractAddress: null,
    logs: status === 1 ? [{ index: 0, address: config.contracts.proxy, topics: log.topics, data: log.data }] : [],
  };
}

function fakeProvider(overrides: Record<string, unknown> = {}) {
  return {
    getTransaction: vi.fn(async () => transferTx()),
    getTransactionReceipt: vi.fn(async () => transferReceipt()),
    getBlock: vi.fn(async () => ({ number: 7, timestamp: Math.floor(Date.now() / 1000) - 120 })),
    getBlockNumber: vi.fn(async () => 9),
    call: vi.fn(async () => "0x"),
    ...overrides,
  };
}

function renderAt(path: string, cfg: AppConfig = config) {
  const user = userEvent.setup();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrap = (node: ReactNode) => (
    <QueryClientProvider client={queryClient}>
      <ConfigContext.Provider value={cfg}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/tx/:hash" element={<TransactionPage />} />
            <Route path="/block/:number" element={<BlockPage />} />
            <Route path="*" element={node} />
          </Routes>
        </MemoryRouter>
      </ConfigContext.Provider>
    </QueryClientProvider>
  );
  render(wrap(<p>elsewhere</p>));
  return user;
}

beforeEach(() => {
  useWallet.setState({ ...initialWalletState });
  useRpcSetting.setState({ customRpcUrl: null });
  mocks.provider = fakeProvider();
  mocks.readProvider.mockReset();
  mocks.readProvider.mockImplementation(() => mocks.provider);
});

describe("Transaction view (/tx/:hash)", () => {
  it("decodes a USDX transfer call and its Transfer log", async () => {
    renderAt(`/tx/${HASH}`);
    expect(await screen.findByText("Success")).toBeInTheDocument();
    expect(mocks.readProvider).toHaveBeenCalledWith(config, config.rpcUrl, null);

    // The function called, with the amount in USDX.
    expect(screen.getByText("transfer")).toBeInTheDocument();
    expect(screen.getByText("transfer(address,uint256)")).toBeInTheDocument();
    const amounts = screen.getAllByText("12.5 USDX");
    expect(amounts).toHaveLength(2); // the call's amount and the log's value

    // The Transfer event, emitted by USDX, from the sender to the recipient.
    const events = screen.getByRole("heading", { name: "Events (1)" }).closest("div")!.parentElement!;
    expect(within(events).getByText("Transfer")).toBeInTheDocument();
    expect(within(events).getByText("Transfer(address,address,uint256)")).toBeInTheDocument();
    expect(within(events).getByText(RECIPIENT)).toBeInTheDocument();
    expect(within(events).getByText("USDX")).toBeInTheDocument();

    // To is named; the block links to the block view; gas and time are shown.
    expect(screen.getAllByText("USDX").length).toBeGreaterThanOrEqual(2);
    expect(screen.getByRole("link", { name: "7" })).toHaveAttribute("href", "/block/7");
    expect(screen.getByText("51,234")).toBeInTheDocument();
    expect(screen.getByText(/2 minutes ago/)).toBeInTheDocument();
  });

  it("says what a Transfer really moved when shares round it down, at the multiplier of its log", async () => {
    // Block 7: the multiplier was 1.5 after block 6; a RewardMultiplier log at index 2 makes it 2.0.
    const logOf = (index: number, value: bigint) => ({
      index,
      address: config.contracts.proxy,
      ...USDX.encodeEventLog("Transfer", [SENDER, RECIPIENT, value]),
    });
    const receipt = { ...transferReceipt(), logs: [logOf(0, 4n), logOf(1, 1n), logOf(3, 3n), logOf(4, AMOUNT), logOf(5, 2n)] };
    const multiplierLog = { index: 2, ...USDX.encodeEventLog("RewardMultiplier", [2n * 10n ** 18n]) };
    const call = vi.fn(async () => USDX.encodeFunctionResult("rewardMultiplier", [15n * 10n ** 17n]));
    const getLogs = vi.fn(async () => [multiplierLog]);
    mocks.provider = fakeProvider({ getTransactionReceipt: vi.fn(async () => receipt), call, getLogs });
    renderAt(`/tx/${HASH}`);
    expect(await screen.findByRole("heading", { name: "Events (5)" })).toBeInTheDocument();
    expect(call).toHaveBeenCalledWith(expect.objectContaining({ to: config.contracts.proxy, blockTag: 6 }));
    expect(getLogs).toHaveBeenCalledWith(expect.objectContaining({ address: config.contracts.proxy, fromBlock: 7, toBlock: 7 }));
    const notes = screen.getAllByRole("note");
    // The 12.5 USDX transfer moved all of it; so did transfer(2) at 2.0 (one share, worth 2 wei).
    expect(notes).toHaveLength(3);
    // At 1.5: transfer(4) moves two shares, worth 3 wei; transfer(1) moves none.
    expect(notes[0]).toHaveTextContent("0.000000000000000003 USDX (0.000000000000000002 shares)");
    expect(notes[0]).toHaveTextContent(
      "The event says 0.000000000000000004 USDX; 0.000000000000000003 USDX moved (rounded down to whole shares).",
    );
    expect(notes[1]).toHaveTextContent("No shares moved: the amount is worth less than one share.");
    // After the change to 2.0 in the same block: transfer(3) moves one share, worth 2 wei.
    expect(notes[2]).toHaveTextContent(
      "The event says 0.000000000000000003 USDX; 0.000000000000000002 USDX moved (rounded down to whole shares).",
    );
  });

  it("shows the Transfer as the event says when the chain cannot say what moved", async () => {
    mocks.provider = fakeProvider({
      call: vi.fn(async () => {
        throw new Error("missing trie node");
      }),
      getLogs: vi.fn(async () => []),
    });
    renderAt(`/tx/${HASH}`);
    expect(await screen.findByText("Success")).toBeInTheDocument();
    expect(screen.getAllByText("12.5 USDX")).toHaveLength(2);
    expect(screen.queryByRole("note")).toBeNull();
  });

  it("shows why a reverted transaction failed, decoded from the contract's error", async () => {
    const call = vi.fn(async () => {
      throw Object.assign(new Error("execution reverted"), {
        code: "CALL_EXCEPTION",
        data: USDX.encodeErrorResult("USDXPausedTransfers", []),
      });
    });
    mocks.provider = fakeProvider({ getTransactionReceipt: vi.fn(async () => transferReceipt(0)), call });
    renderAt(`/tx/${HASH}`);
    // The alert's title (no longer a heading: an alert sits at any depth of the page's outline).
    expect(within(await screen.findByRole("alert")).getByText("Reverted")).toBeInTheDocument();
    expect(screen.getByText("USDX is paused: no tokens can be transferred, minted or burned until it is unpaused.")).toBeInTheDocument();
    expect(call).toHaveBeenCalledWith(expect.objectContaining({ to: config.contracts.proxy, from: SENDER, blockTag: 7 }));
  });

  it("says when the hash is not a transaction hash, without reading the chain", () => {
    renderAt("/tx/0x1234");
    expect(screen.getByText("Not a transaction hash")).toBeInTheDocument();
    expect(screen.getByText(/is not a transaction hash: a hash is 0x followed by 64 hexadecimal characters/)).toBeInTheDocument();
    expect(mocks.readProvider).not.toHaveBeenCalled();
  });

  it("says 'Transaction not found on this chain.' for an unknown hash", async () => {
    mocks.provider = fakeProvider({ getTransaction: vi.fn(async () => null), getTransactionReceipt: vi.fn(async () => null) });
    renderAt(`/tx/${HASH}`);
    expect(await screen.findByText("Transaction not found on this chain.")).toBeInTheDocument();
  });

  it("shows a read failure with Retry, and recovers", async () => {
    const getTransaction = vi.fn().mockRejectedValueOnce(new Error("connect ECONNREFUSED 127.0.0.1:8545")).mockResolvedValue(transferTx());
    mocks.provider = fakeProvider({ getTransaction });
    const user = renderAt(`/tx/${HASH}`);
    expect(await screen.findByText("Could not read the chain: connect ECONNREFUSED 127.0.0.1:8545")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("Success")).toBeInTheDocument();
  });

  it("hands over to the block explorer on Sepolia", () => {
    renderAt(`/tx/${HASH}`, { ...config, network: "sepolia", chainId: 11155111, explorerUrl: "https://sepolia.etherscan.io" });
    expect(screen.getByRole("link", { name: /View on sepolia.etherscan.io/ })).toHaveAttribute(
      "href",
      `https://sepolia.etherscan.io/tx/${HASH}`,
    );
    expect(mocks.readProvider).not.toHaveBeenCalled();
  });
});

describe("Block view (/block/:number)", () => {
  it("shows the block and links its transactions and neighbours", async () => {
    const tx = transferTx();
    const getBlock = vi.fn(async () => ({
      number: 7,
      hash: "0x" + "cd".repeat(32),
      parentHash: "0x" + "ef".repeat(32),
      timestamp: Math.floor(Date.now() / 1000) - 30,
      gasUsed: 51_234n,
      gasLimit: 30_000_000n,
      miner: SENDER,
      baseFeePerGas: GWEI,
      prefetchedTransactions: [tx],
    }));
    mocks.provider = fakeProvider({ getBlock });
    renderAt("/block/7");
    expect(await screen.findByRole("heading", { name: "Transactions (1)" })).toBeInTheDocument();
    expect(getBlock).toHaveBeenCalledWith(7, true);
    expect(screen.getByRole("heading", { name: "Block #7" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: `Transaction ${HASH}` })).toHaveAttribute("href", `/tx/${HASH}`);
    const row = screen.getByRole("link", { name: `Transaction ${HASH}` }).closest("tr")!;
    expect(within(row).getByText("transfer")).toBeInTheDocument();
    expect(within(row).getByText("USDX")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /Previous block/ })).toHaveAttribute("href", "/block/6");
    expect(screen.getByRole("link", { name: /Next block/ })).toHaveAttribute("href", "/block/8");
    expect(screen.getByText("1.0 gwei")).toBeInTheDocument();
  });

  it("says when the block is not mined yet", async () => {
    mocks.provider = fakeProvider({ getBlock: vi.fn(async () => null), getBlockNumber: vi.fn(async () => 5) });
    renderAt("/block/50");
    expect(await screen.findByText("Block not found on this chain.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "5" })).toHaveAttribute("href", "/block/5");
  });

  it("says when the number is not a block number", () => {
    renderAt("/block/abc");
    expect(screen.getByText("Not a block number")).toBeInTheDocument();
    expect(mocks.readProvider).not.toHaveBeenCalled();
  });
});
