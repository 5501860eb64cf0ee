import { beforeEach, describe, expect, it, vi } from "vitest";
import { recordNotices } from "@/test/notices";
import { testConfig } from "@/test/config";
import { STORAGE_KEYS } from "@/lib/storage";
import { connectWallet, disconnectWallet, ensureChain } from "./connect";
import { initialWalletState, useWallet, type Eip1193Events, type Eip1193Provider } from "./store";

const ALICE = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";
const sepolia = testConfig({
  network: "sepolia",
  chainId: 11155111,
  chainIdHex: "0xaa36a7",
  networkLabel: "Sepolia",
  explorerUrl: "https://sepolia.etherscan.io",
  rpcUrl: null,
});

/** A scripted injected wallet: answers by method, remembers requests and listeners. */
function fakeWallet(answers: Record<string, (params: unknown) => unknown>) {
  const listeners: Partial<Eip1193Events> = {};
  const requests: string[] = [];
  const provider: Eip1193Provider = {
    request: async ({ method, params }) => {
      requests.push(method);
      const answer = answers[method];
      if (!answer) throw Object.assign(new Error(`unexpected ${method}`), { code: 4200 });
      return answer(params);
    },
    on: (event, listener) => void Object.assign(listeners, { [event]: listener }),
    removeListener: (event) => void delete listeners[event],
  };
  return { provider, listeners, requests };
}

const notices = recordNotices();
const lastToast = notices.last;

beforeEach(() => {
  notices.clear();
  useWallet.setState({ ...initialWalletState });
  localStorage.clear();
});

describe("moving the wallet to the configured chain", () => {
  it("does nothing when the wallet is already there", async () => {
    const { provider, requests } = fakeWallet({ eth_chainId: () => "0xaa36a7" });
    await ensureChain(provider, sepolia);
    expect(requests).toEqual(["eth_chainId"]);
  });

  it("adds the chain when the wallet does not know it (4902), then uses it", async () => {
    const { provider, requests } = fakeWallet({
      eth_chainId: () => "0x1",
      wallet_switchEthereumChain: () => {
        throw Object.assign(new Error("Unrecognized chain"), { code: 4902 });
      },
      wallet_addEthereumChain: () => null,
    });
    await ensureChain(provider, sepolia);
    expect(requests).toEqual(["eth_chainId", "wallet_switchEthereumChain", "wallet_addEthereumChain"]);
  });

  it("says 'Please add it manually.' when adding fails, and 'Please try again.' for other failures", async () => {
    const refusesAdd = fakeWallet({
      eth_chainId: () => "0x1",
      wallet_switchEthereumChain: () => {
        throw Object.assign(new Error("Unrecognized chain"), { code: 4902 });
      },
      wallet_addEthereumChain: () => {
        throw Object.assign(new Error("no"), { code: 4001 });
      },
    });
    await expect(ensureChain(refusesAdd.provider, sepolia)).rejects.toThrow();
    expect(lastToast()).toMatchObject({
      title: "Network Error",
      description: "Could not switch to Sepolia network. Please add it manually.",
      variant: "destructive",
    });

    const refusesSwitch = fakeWallet({
      eth_chainId: () => "0x1",
      wallet_switchEthereumChain: () => {
        throw Object.assign(new Error("User rejected"), { code: 4001 });
      },
    });
    await expect(ensureChain(refusesSwitch.provider, sepolia)).rejects.toThrow();
    expect(lastToast()).toMatchObject({ title: "Network Error", description: "Could not switch to Sepolia network. Please try again." });
  });
});

describe("connecting and disconnecting (PRODUCT.md sections 4 and 8)", () => {
  it("connects: checksummed address, chain, remembered flag and 'Wallet Connected' with the short address", async () => {
    const { provider } = fakeWallet({ eth_requestAccounts: () => [ALICE.toLowerCase()], eth_chainId: () => "0xaa36a7" });
    expect(await connectWallet({ id: "io.metamask", name: "MetaMask", provider }, sepolia)).toBe(true);
    expect(useWallet.getState()).toMatchObject({ status: "connected", address: ALICE, chainId: 11155111, walletName: "MetaMask" });
    expect(localStorage.getItem(STORAGE_KEYS.walletConnected)).toBe("io.metamask");
    expect(lastToast()).toMatchObject({ title: "Wallet Connected", description: "0x14dC...9955" });
  });

  it("says 'Connection Failed' and stays disconnected when the person rejects", async () => {
    const { provider } = fakeWallet({
      eth_requestAccounts: () => {
        throw Object.assign(new Error("User rejected the request."), { code: 4001 });
      },
    });
    expect(await connectWallet({ id: "x", name: "X", provider }, sepolia)).toBe(false);
    expect(useWallet.getState().status).toBe("disconnected");
    expect(lastToast()).toMatchObject({
      title: "Connection Failed",
      description: "You rejected the connection request in your wallet.",
      variant: "destructive",
    });
  });

  it("follows accountsChanged: a new account switches the address, an empty list disconnects", async () => {
    const BOB = "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f";
    const { provider, listeners } = fakeWallet({
      eth_requestAccounts: () => [ALICE],
      eth_chainId: () => "0xaa36a7",
      wallet_revokePermissions: () => null,
    });
    await connectWallet({ id: "x", name: "X", provider }, sepolia);
    listeners.accountsChanged!([BOB.toLowerCase()]);
    expect(useWallet.getState().address).toBe(BOB);
    listeners.accountsChanged!([]);
    expect(useWallet.getState()).toMatchObject({ status: "disconnected", address: null, provider: null });
    expect(lastToast()).toMatchObject({ title: "Wallet Disconnected", description: "Your wallet has been disconnected" });
  });

  it("reloads the page on chainChanged", async () => {
    const reload = vi.fn();
    vi.stubGlobal("location", { ...window.location, reload });
    const { provider, listeners } = fakeWallet({ eth_requestAccounts: () => [ALICE], eth_chainId: () => "0xaa36a7" });
    await connectWallet({ id: "x", name: "X", provider }, sepolia);
    listeners.chainChanged!("0x1");
    expect(reload).toHaveBeenCalledOnce();
    vi.unstubAllGlobals();
  });

  it("disconnect clears the wallet state and the remembered flag", async () => {
    const { provider } = fakeWallet({
      eth_requestAccounts: () => [ALICE],
      eth_chainId: () => "0xaa36a7",
      wallet_revokePermissions: () => null,
    });
    await connectWallet({ id: "x", name: "X", provider }, sepolia);
    disconnectWallet();
    expect(useWallet.getState()).toEqual({ ...initialWalletState });
    expect(localStorage.getItem(STORAGE_KEYS.walletConnected)).toBeNull();
  });
});
