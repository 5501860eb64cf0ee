import { describe, it, expect, beforeEach, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { utf8ToHex } from "@/lib/auth/siwe";
import { useWallet } from "@/lib/wallet/store";
import {
  account,
  ALICE,
  callsTo,
  challengeText,
  connect,
  ERIN,
  FAUCET_TERMS,
  fakeBank,
  lastToast,
  renderBankPage,
  resetAll,
  wallet,
} from "./testUtils";
beforeEach(resetAll);

/**
 * MOCK_BANK=faucet (issue 13): the faucet mints only to wallets the user proved they control, so a
 * wallet connected now signs the server's challenge when added or verified; the Deposit form shows
 * the daily caps and what is left, and a refused deposit shows the server's sentence.
 */

const SIGNATURE = `0x${"ab".repeat(65)}`;

/** The connected wallet, answering personal_sign with SIGNATURE (or refusing it, as a person might). */
function connectSigner(address = ERIN, refuse = false) {
  connect(address);
  const request = vi.fn(async ({ method }: { method: string }) => {
    if (method !== "personal_sign") return null;
    if (refuse) throw Object.assign(new Error("User rejected the request."), { code: 4001 });
    return SIGNATURE;
  });
  useWallet.setState({ provider: { request } });
  return request;
}

async function open(tab: "My Wallets" | "Deposit USD") {
  const view = renderBankPage();
  await view.user.click(screen.getByRole("tab", { name: tab }));
  return view;
}

const posts = (bank: ReturnType<typeof fakeBank>, path: string) => bank.calls.filter((c) => c.method === "POST" && c.path === path);

describe("Test faucet: verified wallets", () => {
  it("adds the connected wallet verified: it signs the server's challenge, and the proof goes with the wallet", async () => {
    const request = connectSigner(ERIN);
    const bank = fakeBank({ terms: FAUCET_TERMS });
    const { user } = await open("My Wallets");
    await user.click(await screen.findByRole("button", { name: "Add connected wallet" }));
    expect(posts(bank, "/api/bank/wallets/challenge").map((c) => c.body)).toEqual([{ address: ERIN }]);
    expect(request).toHaveBeenCalledWith({ method: "personal_sign", params: [utf8ToHex(challengeText(ERIN)), ERIN] });
    const [added] = posts(bank, "/api/bank/wallets");
    expect(added.body).toEqual({
      name: "Development wallet (erin)",
      address: ERIN,
      challenge: expect.stringMatching(/^c/),
      signature: SIGNATURE,
    });
    expect(lastToast()).toMatchObject({
      title: "Wallet Added",
      description: "Development wallet (erin) (0x71bE...5788) was added as your primary wallet and verified.",
    });
    const item = within(await screen.findByRole("list", { name: "Wallets" })).getByRole("listitem");
    expect(within(item).getByText("Verified")).toBeInTheDocument();
    expect(within(item).queryByRole("button", { name: /^Verify/ })).not.toBeInTheDocument();
  });

  it("adds another address unverified, says why, and marks it 'Not verified' with a Verify button", async () => {
    const request = connectSigner(ERIN);
    const bank = fakeBank({ terms: FAUCET_TERMS, wallets: [wallet({ verified: true, verifiedBy: "sign-in" })] });
    const { user } = await open("My Wallets");
    await user.click(await screen.findByRole("button", { name: "Add Wallet" }));
    const dialog = screen.getByRole("dialog", { name: "Add Wallet" });
    expect(dialog).toHaveTextContent("This test faucet mints only to wallets you prove you control");
    await user.type(within(dialog).getByLabelText("Wallet Name"), "Cold storage");
    await user.type(within(dialog).getByLabelText("Wallet Address"), ALICE);
    await user.click(within(dialog).getByRole("button", { name: "Add Wallet" }));
    expect(request).not.toHaveBeenCalled();
    expect(posts(bank, "/api/bank/wallets").map((c) => c.body)).toEqual([{ name: "Cold storage", address: ALICE }]);
    expect(lastToast()).toMatchObject({
      title: "Wallet Added",
      description:
        "Cold storage (0x14dC...9955) was added, not verified. The test faucet mints only to wallets you prove you control: connect it in your wallet and choose Verify.",
    });
    const [first, second] = within(screen.getByRole("list", { name: "Wallets" })).getAllByRole("listitem");
    expect(within(first).getByText("Verified")).toBeInTheDocument();
    expect(within(second).getByText("Not verified")).toBeInTheDocument();
    expect(within(second).getByRole("button", { name: "Verify Cold storage" })).toBeInTheDocument();
  });

  it("Verify: the wallet, once connected, signs a challenge and the row turns 'Verified' ('Wallet Verified')", async () => {
    const request = connectSigner(ALICE);
    const bank = fakeBank({
      terms: FAUCET_TERMS,
      wallets: [wallet(), wallet({ id: 2, name: "Cold storage", address: ALICE, isPrimary: false })],
    });
    const { user } = await open("My Wallets");
    await user.click(await screen.findByRole("button", { name: "Verify Cold storage" }));
    expect(request).toHaveBeenCalledWith({ method: "personal_sign", params: [utf8ToHex(challengeText(ALICE)), ALICE] });
    expect(posts(bank, "/api/bank/wallets/2/verify")).toHaveLength(1);
    expect(lastToast()).toMatchObject({
      title: "Wallet Verified",
      description: "Cold storage (0x14dC...9955) can now receive deposits from the test faucet.",
    });
    const second = within(screen.getByRole("list", { name: "Wallets" })).getAllByRole("listitem")[1];
    expect(await within(second).findByText("Verified")).toBeInTheDocument();
    expect(within(second).queryByRole("button", { name: "Verify Cold storage" })).not.toBeInTheDocument();
  });

  it("Verify for a wallet that is not connected says to connect it, and asks the server nothing", async () => {
    connectSigner(ALICE);
    const bank = fakeBank({ terms: FAUCET_TERMS, wallets: [wallet()] });
    const { user } = await open("My Wallets");
    await user.click(await screen.findByRole("button", { name: "Verify Main wallet" }));
    expect(lastToast()).toMatchObject({
      title: "Wallet Not Verified",
      description: "Connect 0x71bE...5788 in your wallet to sign for it: the test faucet mints only to wallets you prove you control.",
      variant: "destructive",
    });
    expect(posts(bank, "/api/bank/wallets/challenge")).toHaveLength(0);
  });

  it("a signature refused in the wallet adds nothing, and says so", async () => {
    connectSigner(ERIN, true);
    const bank = fakeBank({ terms: FAUCET_TERMS });
    const { user } = await open("My Wallets");
    await user.click(await screen.findByRole("button", { name: "Add connected wallet" }));
    expect(lastToast()).toMatchObject({
      title: "Wallet Not Verified",
      description: "You rejected the signature request in your wallet, so the wallet was not verified.",
    });
    expect(posts(bank, "/api/bank/wallets")).toHaveLength(0);
    expect(screen.getByText("No wallets yet")).toBeInTheDocument();
  });

  it("on the local chain (MOCK_BANK=local) asks for no signature and marks no wallet 'Not verified'", async () => {
    const request = connectSigner(ERIN);
    fakeBank({ wallets: [wallet({ id: 2, name: "Cold storage", address: ALICE })] });
    const { user } = await open("My Wallets");
    await user.click(await screen.findByRole("button", { name: "Add connected wallet" }));
    expect(lastToast()).toMatchObject({ title: "Wallet Added" });
    expect(request).not.toHaveBeenCalled();
    expect(screen.queryByText("Not verified")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Verify/ })).not.toBeInTheDocument();
  });
});

describe("Test faucet: Deposit USD", () => {
  async function deposit(user: Awaited<ReturnType<typeof open>>["user"], amount: string) {
    await user.click(await screen.findByLabelText("From bank account"));
    await user.click(await screen.findByRole("option", { name: /Everyday Checking/ }));
    await user.type(screen.getByLabelText("Amount (USD)"), amount);
    await user.click(screen.getByRole("button", { name: "Deposit USD" }));
  }

  it("shows the daily limits and what is left today", async () => {
    fakeBank({ terms: FAUCET_TERMS, accounts: [account()], wallets: [wallet({ verified: true, verifiedBy: "signature" })] });
    await open("Deposit USD");
    const limits = await screen.findByLabelText("Test faucet limits");
    expect(limits).toHaveTextContent("Daily limit (you)1,000.00 USDX");
    expect(screen.getByTestId("faucet-user-left")).toHaveTextContent("250.00 USDX");
    expect(screen.getByTestId("faucet-total-left")).toHaveTextContent("98,500.00 of 100,000.00 USDX");
    expect(screen.getByText(/the counts start over at 00:00 UTC/)).toBeInTheDocument();
  });

  it("shows a refused deposit's sentence as the 'Deposit Failed' toast and under the form, then reads what is left again", async () => {
    const sentence =
      "Daily mock deposit limit: 1,000.00 USDX a day per user (UTC day), and only 250.00 USDX of it is left today. Deposit at most 250.00 USD, or try again tomorrow (the day turns at 00:00 UTC).";
    const bank = fakeBank({ terms: FAUCET_TERMS, accounts: [account()], wallets: [wallet({ verified: true, verifiedBy: "signature" })] });
    bank.fail["POST /api/bank/deposits"] = { status: 429, error: sentence };
    const { user } = await open("Deposit USD");
    const termsReads = callsTo(bank, "/api/bank/terms");
    await deposit(user, "500");
    expect(lastToast()).toMatchObject({ title: "Deposit Failed", description: sentence, variant: "destructive" });
    expect(screen.getByRole("alert")).toHaveTextContent(sentence);
    await waitFor(() => expect(callsTo(bank, "/api/bank/terms")).toBeGreaterThan(termsReads));
  });

  it("offers no unverified wallet, and refuses a deposit to one before asking the server", async () => {
    const bank = fakeBank({ terms: FAUCET_TERMS, accounts: [account()], wallets: [wallet()] });
    const { user } = await open("Deposit USD");
    const note =
      "The wallet 'Main wallet' is not verified: the test faucet mints only to wallets you have proved you control. Verify it under My Wallets, with that wallet connected.";
    expect(await screen.findByText(note)).toBeInTheDocument();
    await user.click(screen.getByLabelText("To wallet"));
    expect(await screen.findByRole("option", { name: /Main wallet .* \(not verified\)/ })).toHaveAttribute("aria-disabled", "true");
    await user.keyboard("{Escape}");
    await deposit(user, "25");
    expect(lastToast()).toMatchObject({ title: "Invalid Deposit", description: note, variant: "destructive" });
    expect(posts(bank, "/api/bank/deposits")).toHaveLength(0);
  });

  it("picks a verified wallet by default over an unverified primary", async () => {
    fakeBank({
      terms: FAUCET_TERMS,
      accounts: [account()],
      wallets: [wallet(), wallet({ id: 2, name: "Signed", address: ALICE, isPrimary: false, verified: true, verifiedBy: "signature" })],
    });
    await open("Deposit USD");
    expect(await screen.findByLabelText("To wallet")).toHaveTextContent("Signed · 0x14dC...9955");
  });
});
