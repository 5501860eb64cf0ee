import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { useToasts } from "@/components/ui/toast";
import { useRpcSetting } from "@/lib/chain/rpc";
import { ConfigContext, type AppConfig } from "@/lib/config";
import { initialWalletState, useWallet, type Eip1193Provider } from "@/lib/wallet/store";
import { USDX__factory } from "@bindings/factories/contracts/USDX__factory";
import { WALLET_RECONNECT_DELAY_MS } from "../hooks/useRpcSettings";
import SettingsPage from "./SettingsPage";
import { testConfig as makeTestConfig } from "@/test/config";

const mocks = vi.hoisted(() => ({
  disconnectWallet: vi.fn(),
  connectWallet: vi.fn(async () => true),
  copyText: vi.fn(async () => true),
  tokenFigures: { data: undefined as unknown, isError: false, isLoading: true },
}));

vi.mock("@/lib/wallet/connect", () => ({ disconnectWallet: mocks.disconnectWallet, connectWallet: mocks.connectWallet }));
vi.mock("@/lib/clipboard", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/clipboard")>()),
  copyText: mocks.copyText,
}));
vi.mock("@/lib/chain/queries", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/chain/queries")>()),
  useTokenFigures: () => mocks.tokenFigures,
}));

const config: AppConfig = makeTestConfig({ devAccounts: null });

const WALLET_ADDRESS = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const walletProvider: Eip1193Provider = { request: vi.fn(async () => null) };

const lastToast = () => useToasts.getState().toasts[0];

/** A fetch that answers eth_chainId with `chainIdHex`. */
function nodeServing(chainIdHex: string) {
  return vi.fn(
    async () => ({ ok: true, status: 200, json: async () => ({ jsonrpc: "2.0", id: 1, result: chainIdHex }) }) as unknown as Response,
  );
}

function renderSettings(cfg: AppConfig = config) {
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const invalidate = vi.spyOn(queryClient, "invalidateQueries");
  render(
    <QueryClientProvider client={queryClient}>
      <ConfigContext.Provider value={cfg}>
        <MemoryRouter>
          <SettingsPage />
        </MemoryRouter>
      </ConfigContext.Provider>
    </QueryClientProvider>,
  );
  return { user, invalidate };
}

/** jsdom's Blob has no text(), and a file may run there (vitest.projects.ts). */
const readBlob = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });

const rpcInput = () => screen.getByLabelText(/Custom RPC URL/);
const saveButton = () => screen.getByRole("button", { name: "Save RPC Settings" });

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  window.localStorage.clear();
  useToasts.setState({ toasts: [] });
  useWallet.setState({ ...initialWalletState });
  useRpcSetting.setState({ customRpcUrl: null });
  mocks.tokenFigures = { data: undefined, isError: false, isLoading: true };
  mocks.disconnectWallet.mockReset();
  mocks.connectWallet.mockClear();
  mocks.copyText.mockClear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("Settings: Network card", () => {
  it("shows the network and chain id read-only", () => {
    renderSettings({ ...config, network: "sepolia", networkLabel: "Sepolia", chainId: 11155111, chainIdHex: "0xaa36a7" });
    expect(screen.getByLabelText("Network")).toHaveValue("Sepolia Testnet");
    expect(screen.getByLabelText("Network")).toHaveAttribute("readonly");
    expect(screen.getByLabelText("Chain ID")).toHaveValue("11155111");
  });

  it("refuses an empty RPC URL with 'Invalid RPC URL'", async () => {
    const fetcher = nodeServing("0x7a69");
    vi.stubGlobal("fetch", fetcher);
    const { user } = renderSettings();
    await user.click(saveButton());
    expect(lastToast()).toMatchObject({ title: "Invalid RPC URL", description: "Please enter a valid RPC URL", variant: "destructive" });
    expect(screen.getByRole("alert")).toHaveTextContent("Please enter a valid RPC URL");
    expect(fetcher).not.toHaveBeenCalled();
    expect(window.localStorage.getItem("xft_custom_rpc_url")).toBeNull();
  });

  it("refuses a URL that is not http(s)", async () => {
    const { user } = renderSettings();
    await user.type(rpcInput(), "ws://127.0.0.1:8545");
    await user.click(saveButton());
    expect(lastToast()).toMatchObject({ title: "Invalid RPC URL", variant: "destructive" });
    expect(window.localStorage.getItem("xft_custom_rpc_url")).toBeNull();
  });

  it("does not save an RPC that serves another chain, and says which", async () => {
    vi.stubGlobal("fetch", nodeServing("0x1"));
    useWallet.setState({
      status: "connected",
      address: WALLET_ADDRESS,
      chainId: 31337,
      provider: walletProvider,
      walletId: "dev",
      walletName: "Development wallet",
    });
    const { user } = renderSettings();
    await user.type(rpcInput(), "https://mainnet.example/rpc");
    await user.click(saveButton());
    await waitFor(() => expect(lastToast()?.title).toBe("Error Saving RPC URL"));
    expect(lastToast()).toMatchObject({
      description: "That RPC answers chain 1; this dashboard runs on chain 31337.",
      variant: "destructive",
    });
    expect(screen.getByRole("alert")).toHaveTextContent("That RPC answers chain 1; this dashboard runs on chain 31337.");
    expect(window.localStorage.getItem("xft_custom_rpc_url")).toBeNull();
    expect(mocks.disconnectWallet).not.toHaveBeenCalled();
  });

  it("saves a working RPC, reloads chain reads, and reconnects the wallet after 1 s", async () => {
    const fetcher = nodeServing("0x7a69");
    vi.stubGlobal("fetch", fetcher);
    useWallet.setState({
      status: "connected",
      address: WALLET_ADDRESS,
      chainId: 31337,
      provider: walletProvider,
      walletId: "dev",
      walletName: "Development wallet",
    });
    const { user, invalidate } = renderSettings();
    await user.type(rpcInput(), "http://127.0.0.1:9545");
    await user.click(saveButton());

    await waitFor(() => expect(lastToast()?.title).toBe("RPC URL Updated"));
    expect(lastToast().description).toBe("The RPC URL has been updated. Please reconnect your wallet.");
    expect(fetcher).toHaveBeenCalledWith("http://127.0.0.1:9545", expect.objectContaining({ method: "POST" }));
    expect(window.localStorage.getItem("xft_custom_rpc_url")).toBe("http://127.0.0.1:9545");
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ["chain"] });
    expect(mocks.disconnectWallet).toHaveBeenCalledTimes(1);

    act(() => void vi.advanceTimersByTime(WALLET_RECONNECT_DELAY_MS - 100));
    expect(mocks.connectWallet).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(100));
    expect(mocks.connectWallet).toHaveBeenCalledWith({ id: "dev", name: "Development wallet", provider: walletProvider }, config);
    expect(screen.getByText("http://127.0.0.1:9545")).toBeInTheDocument();
  });

  it("saves without touching the wallet when none is connected", async () => {
    vi.stubGlobal("fetch", nodeServing("0x7a69"));
    const { user } = renderSettings();
    await user.type(rpcInput(), "https://rpc.example");
    await user.click(saveButton());
    await waitFor(() => expect(lastToast()?.title).toBe("RPC URL Updated"));
    act(() => void vi.advanceTimersByTime(WALLET_RECONNECT_DELAY_MS * 2));
    expect(mocks.disconnectWallet).not.toHaveBeenCalled();
    expect(mocks.connectWallet).not.toHaveBeenCalled();
  });

  it("resets a saved URL to the default", async () => {
    window.localStorage.setItem("xft_custom_rpc_url", "https://rpc.example");
    useRpcSetting.setState({ customRpcUrl: "https://rpc.example" });
    const { user } = renderSettings();
    expect(rpcInput()).toHaveValue("https://rpc.example");
    await user.click(screen.getByRole("button", { name: "Reset to default" }));
    expect(window.localStorage.getItem("xft_custom_rpc_url")).toBeNull();
    expect(rpcInput()).toHaveValue("");
    expect(lastToast()?.title).toBe("RPC URL Updated");
    expect(screen.queryByRole("button", { name: "Reset to default" })).toBeNull();
  });
});

describe("Settings: Wallet Connection card", () => {
  it("shows Disconnected and a Connect Wallet button without a wallet", () => {
    renderSettings();
    expect(screen.getByText("Disconnected")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Connect Wallet" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Disconnect Wallet" })).toBeNull();
  });

  it("shows the connected address and wallet, and disconnects", async () => {
    useWallet.setState({
      status: "connected",
      address: WALLET_ADDRESS,
      chainId: 31337,
      provider: walletProvider,
      walletId: "dev",
      walletName: "Development wallet",
    });
    const { user } = renderSettings();
    expect(screen.getByText("Connected")).toBeInTheDocument();
    expect(screen.getByText(WALLET_ADDRESS)).toBeInTheDocument();
    expect(screen.getByText("Development wallet")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Connect Wallet" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Disconnect Wallet" }));
    expect(mocks.disconnectWallet).toHaveBeenCalledTimes(1);
  });

  it("warns when the wallet is on another chain", () => {
    useWallet.setState({
      status: "connected",
      address: WALLET_ADDRESS,
      chainId: 1,
      provider: walletProvider,
      walletId: "dev",
      walletName: "Development wallet",
    });
    renderSettings();
    expect(screen.getByRole("alert")).toHaveTextContent("Your wallet is on chain 1, not Hardhat Local (31337).");
  });
});

describe("Settings: token info card", () => {
  it("shows the token's fixed facts while the chain read is loading", () => {
    renderSettings();
    expect(screen.getByText("XFT Digital Dollar")).toBeInTheDocument();
    expect(screen.getByText("USDX")).toBeInTheDocument();
    expect(screen.getByText("18")).toBeInTheDocument();
    expect(screen.getByText("ERC20")).toBeInTheDocument();
  });

  it("shows what the chain answers, and the contract addresses", () => {
    mocks.tokenFigures = { data: { name: "Renamed Dollar", symbol: "RUSD", decimals: 18 }, isError: false, isLoading: false };
    renderSettings();
    expect(screen.getByText("Renamed Dollar")).toBeInTheDocument();
    expect(screen.getByText("RUSD")).toBeInTheDocument();
    for (const address of Object.values(config.contracts).filter((v) => typeof v === "string")) {
      expect(screen.getByText(address as string)).toBeInTheDocument();
      expect(screen.getByRole("button", { name: `Copy ${address}` })).toBeInTheDocument();
    }
  });

  it("copies the minified ABI with 'ABI Copied'", async () => {
    const { user } = renderSettings();
    await user.click(screen.getByRole("button", { name: "Copy ABI" }));
    await waitFor(() => expect(lastToast()?.title).toBe("ABI Copied"));
    expect(lastToast().description).toBe("Minified ABI copied to clipboard");
    expect(mocks.copyText).toHaveBeenCalledWith(JSON.stringify(USDX__factory.abi));
  });

  it("downloads the minified ABI as usdxAbi.json with 'ABI Downloaded'", async () => {
    const blobs: Blob[] = [];
    const downloads: string[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return "blob:usdx-abi";
    });
    const revokeObjectURL = vi.fn();
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    onTestFinished(() => void Object.assign(URL, original));
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(`${this.download} ${this.getAttribute("href")}`);
    });
    const { user } = renderSettings();
    await user.click(screen.getByRole("button", { name: "Download ABI" }));

    await waitFor(() => expect(lastToast()?.title).toBe("ABI Downloaded"));
    expect(lastToast().description).toBe("Minified ABI file downloaded");
    expect(downloads).toEqual(["usdxAbi.json blob:usdx-abi"]);
    expect(await readBlob(blobs[0])).toBe(JSON.stringify(USDX__factory.abi));
    act(() => void vi.advanceTimersByTime(1));
    expect(revokeObjectURL).toHaveBeenCalledWith("blob:usdx-abi");
  });
});
