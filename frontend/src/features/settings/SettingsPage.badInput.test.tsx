import { fireEvent, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router-dom";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useToasts } from "@/components/ui/toast";
import { useRpcSetting } from "@/lib/chain/rpc";
import { ConfigContext } from "@/lib/config";
import { initialWalletState, useWallet } from "@/lib/wallet/store";
import { BLANKS, caseCounter } from "@/test/badInputs";
import { testConfig } from "@/test/config";
import SettingsPage from "./pages/SettingsPage";

const mocks = vi.hoisted(() => ({ disconnectWallet: vi.fn(), connectWallet: vi.fn(async () => true) }));
vi.mock("@/lib/wallet/connect", () => ({ disconnectWallet: mocks.disconnectWallet, connectWallet: mocks.connectWallet }));
vi.mock("@/lib/chain/queries", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/chain/queries")>()),
  useTokenFigures: () => ({ data: undefined, isError: false, isLoading: true }),
}));

/**
 * Settings' Custom RPC URL against the table of bad inputs (issue 7, item 3): each is refused with
 * 'Invalid RPC URL' (PRODUCT.md section 5, plus our http(s) rule), never probed, never saved, and a
 * connected wallet is left alone.
 */
const cases = caseCounter("settings RPC URL");
afterAll(() => cases.print());

const EMPTY = "Please enter a valid RPC URL";
const NOT_HTTP = "Please enter a valid RPC URL starting with http:// or https://";
const BAD_URLS: [string, string][] = [
  ["a WebSocket URL", "ws://127.0.0.1:8545"],
  ["javascript:", "javascript:alert(1)"],
  ["a file URL", "file:///etc/passwd"],
  ["an FTP URL", "ftp://rpc.example"],
  ["a data URL", "data:text/html,<script>alert(1)</script>"],
  ["a scheme alone", "http://"],
  ["no scheme", "rpc.example.com"],
  ["a space in the host", "http://rpc exa.com"],
  ["a NUL in the host", "http://rpc\u0000.example"],
  ["an unclosed IPv6 host", "http://[::1"],
  ["an RTL override before it", "\u202Ehttp://rpc.example"],
  ["an emoji scheme", "😀://rpc.example"],
  ["a spreadsheet formula", '=HYPERLINK("http://rpc.example")'],
  ["10,000 characters", "x".repeat(10_000)],
];

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  window.localStorage.clear();
  useToasts.setState({ toasts: [] });
  useRpcSetting.setState({ customRpcUrl: null });
  useWallet.setState({
    ...initialWalletState,
    status: "connected",
    address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    chainId: 31337,
    provider: { request: vi.fn() },
  });
  mocks.disconnectWallet.mockReset();
  fetchMock = vi.fn();
  vi.stubGlobal("fetch", fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function save(value: string) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ConfigContext.Provider value={testConfig({ devAccounts: null })}>
        <MemoryRouter>
          <SettingsPage />
        </MemoryRouter>
      </ConfigContext.Provider>
    </QueryClientProvider>,
  );
  fireEvent.change(screen.getByLabelText(/Custom RPC URL/), { target: { value } });
  fireEvent.click(screen.getByRole("button", { name: "Save RPC Settings" }));
}

function expectRefused(description: string) {
  expect(useToasts.getState().toasts[0]).toMatchObject({ title: "Invalid RPC URL", description, variant: "destructive" });
  expect(screen.getByRole("alert")).toHaveTextContent(description);
  expect(fetchMock).not.toHaveBeenCalled();
  expect(window.localStorage.getItem("xft_custom_rpc_url")).toBeNull();
  expect(useRpcSetting.getState().customRpcUrl).toBeNull();
  expect(mocks.disconnectWallet).not.toHaveBeenCalled();
}

describe("Custom RPC URL", () => {
  it.each(BLANKS)("refuses %s: 'Please enter a valid RPC URL'", (_what, value) => {
    cases.count("blank");
    save(value);
    expectRefused(EMPTY);
  });

  it.each(BAD_URLS)("refuses %s: it must be an http(s) URL", (_what, value) => {
    cases.count("not http(s)");
    save(value);
    expectRefused(NOT_HTTP);
  });
});
