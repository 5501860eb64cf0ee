import { exactTokenAmount } from "@common/amounts";
import { shortAddress } from "@common/addresses";
import { ROLES, type RoleName } from "@common/roles";
import { MULTIPLIER_QUICK_ADD, type MultiplierOperation } from "@common/token";
import { contractCall } from "./contractCall";
import type { TxRequest } from "./runner";

/**
 * Every write of these screens as a request for the transaction runner, with PRODUCT.md section 8's
 * toasts. Forms validate, then pass one of these to `useTransactor()`; the Dashboard and the Admin
 * Panel build the same calls here, so each text exists once. Each names its contract method and
 * arguments once: the runner dry-runs that call, then sends it.
 */

/** A mint comes from, and a burn goes to, the zero address (the Transfer events say so). */
const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

const usdx = (amount: bigint) => `${exactTokenAmount(amount)} USDX`;

export const transferCall = (to: string, amount: bigint): TxRequest => ({
  action: `Transfer ${usdx(amount)} to ${shortAddress(to)}`,
  notConnected: "Please connect your wallet to transfer tokens",
  call: ({ usdx: token }) => contractCall(token.transfer, [to, amount]),
  history: (from) => ({ type: "Transfer", from, to, amountRaw: amount.toString() }),
  success: { title: "Transfer successful", description: `${exactTokenAmount(amount)} USDX transferred to ${to}` },
  failureTitle: "Transfer failed",
});

export const mintCall = (to: string, amount: bigint): TxRequest => ({
  action: `Mint ${usdx(amount)} to ${shortAddress(to)}`,
  notConnected: "Please connect your wallet to mint tokens",
  call: ({ usdx: token }) => contractCall(token.mint, [to, amount]),
  history: () => ({ type: "Mint", from: ZERO_ADDRESS, to, amountRaw: amount.toString() }),
  success: { title: "Tokens minted successfully", description: `${usdx(amount)} minted to ${to}` },
  failureTitle: "Mint failed",
});

export const burnCall = (from: string, amount: bigint): TxRequest => ({
  action: `Burn ${usdx(amount)} from ${shortAddress(from)}`,
  notConnected: "Please connect your wallet to burn tokens",
  call: ({ usdx: token }) => contractCall(token.burn, [from, amount]),
  history: () => ({ type: "Burn", from, to: ZERO_ADDRESS, amountRaw: amount.toString() }),
  success: { title: "Tokens burned successfully", description: `${usdx(amount)} burned from ${from}` },
  failureTitle: "Burn failed",
});

export const blocklistCall = (account: string, action: "block" | "unblock"): TxRequest => ({
  action: `${action === "block" ? "Block" : "Unblock"} ${shortAddress(account)}`,
  notConnected: "Please connect your wallet to manage the blocklist",
  call: ({ usdx: token }) => contractCall(action === "block" ? token.blockAccount : token.unblockAccount, [account]),
  success: { title: action === "block" ? "Account blocked" : "Account unblocked", description: account },
  failureTitle: "Blocklist update failed",
});

export const pauseCall = (action: "pause" | "unpause"): TxRequest => ({
  action: action === "pause" ? "Pause USDX: stop all transfers, mints and burns" : "Unpause USDX",
  notConnected: `Please connect your wallet to ${action} the contract`,
  call: ({ usdx: token }) => contractCall(action === "pause" ? token.pause : token.unpause, []),
  success:
    action === "pause"
      ? { title: "Contract paused", description: "Transfers, mints and burns are stopped until it is unpaused." }
      : { title: "Contract unpaused", description: "Transfers, mints and burns work again." },
  failureTitle: action === "pause" ? "Pause failed" : "Unpause failed",
});

export const roleCall = (role: RoleName, account: string, action: "grant" | "revoke"): TxRequest => ({
  action: `${action === "grant" ? "Grant" : "Revoke"} ${role} ${action === "grant" ? "to" : "from"} ${shortAddress(account)}`,
  notConnected: "Please connect your wallet to manage roles",
  call: ({ usdx: token }) => contractCall(action === "grant" ? token.grantRole : token.revokeRole, [ROLES[role], account]),
  success: {
    title: action === "grant" ? "Role granted" : "Role revoked",
    description: `${role} ${action === "grant" ? "granted to" : "revoked from"} ${account}`,
  },
  failureTitle: "Role management failed",
});

/**
 * The multiplier is a decimal with 18 decimals (1.0 = 1e18): `value` is already scaled. `change` is
 * what it does to every balance ('+0.50% to every balance'), said in the status modal's action.
 */
export const multiplierCall = (operation: MultiplierOperation, value: bigint, change: string | null = null): TxRequest => ({
  action:
    (operation === "set"
      ? `Set the reward multiplier to ${exactTokenAmount(value)}`
      : `Add ${exactTokenAmount(value)} to the reward multiplier`) + (change ? ` (${change})` : ""),
  notConnected: "Please connect your wallet to update the reward multiplier",
  call: ({ usdx: token }) => contractCall(operation === "set" ? token.setRewardMultiplier : token.addRewardMultiplier, [value]),
  success: {
    title: "Reward multiplier updated",
    description: `Reward multiplier has been ${operation === "set" ? "set to" : "increased by"} ${exactTokenAmount(value)}`,
  },
  failureTitle: "Update failed",
});

/** The Reward Multiplier card's 'Add 0.01' (spec: its own toasts). */
export const quickAddCall = (change: string | null = null): TxRequest => ({
  ...multiplierCall("add", MULTIPLIER_QUICK_ADD, change),
  success: { title: "Reward multiplier incremented", description: "Added 0.01 to the reward multiplier" },
  failureTitle: "Increment failed",
});
