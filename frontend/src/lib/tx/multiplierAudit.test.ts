import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useSession } from "@/lib/auth/session";
import { initialWalletState, useWallet } from "@/lib/wallet/store";
import { recordMultiplierRequest } from "./multiplierAudit";

const ORACLE = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
const OTHER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

const walletSession = (wallet: string) => ({ uid: `wallet:${wallet.toLowerCase()}`, email: null, wallet, admin: false });
const connect = (address: string) => useWallet.setState({ status: "connected", address, chainId: 31337 });

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn(async () => new Response(JSON.stringify({ success: true, id: 1 }), { status: 201 }));
  vi.stubGlobal("fetch", fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  useWallet.setState({ ...initialWalletState });
  useSession.setState({ user: null, ready: false });
});

/** The server records only the oracle's wallet session: the dashboard asks it from no other (issue 29, item 14). */
describe("recordMultiplierRequest", () => {
  it("posts the request when the session is the connected wallet's (SIWE), whatever the letter case", async () => {
    connect(ORACLE);
    useSession.setState({ user: walletSession(ORACLE.toLowerCase()), ready: true });
    await recordMultiplierRequest("add", 10n ** 16n);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [path, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(path).toBe("/api/reward-multiplier");
    expect(JSON.parse(String(init.body))).toEqual({ value: "0.01", operation: "add" });
  });

  it("sends nothing from an email session: it cannot prove the wallet, and the server would refuse it", async () => {
    connect(ORACLE);
    useSession.setState({ user: { uid: "email-user", email: "oracle@example.com", wallet: null, admin: false }, ready: true });
    await recordMultiplierRequest("set", 2n * 10n ** 18n);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends nothing when the session's wallet is not the one connected to send", async () => {
    connect(ORACLE);
    useSession.setState({ user: walletSession(OTHER), ready: true });
    await recordMultiplierRequest("set", 2n * 10n ** 18n);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("ignores a refusal: the transaction goes ahead whatever the server answers", async () => {
    connect(ORACLE);
    useSession.setState({ user: walletSession(ORACLE), ready: true });
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ success: false, error: "No." }), { status: 403 }));
    await expect(recordMultiplierRequest("add", 10n ** 16n)).resolves.toBeUndefined();
  });
});
