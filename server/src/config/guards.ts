import { HDNodeWallet, Wallet } from "ethers";
import { LOCAL_DEV_MNEMONIC, localAccountPath } from "@common/seedAccounts";
import { type EnvSettings, rpcUrlOf } from "./env";

/**
 * Settings that would open a hole in production. Each is refused at start with a sentence that
 * names the variable and says why, so a copied development .env cannot reach a public network.
 * The local chain holds nothing of value, so most of these apply only off it. They are read
 * through the schema (./env.ts), once every variable is well formed.
 */

// The Hardhat node's unlocked accounts (20 by default) are public keys anyone can sign with.
const PUBLIC_TEST_ACCOUNTS = 20;
let publicTestAddresses: Set<string> | undefined;

/** Addresses of the local chain's public test keys (derived once, and only when needed). */
function publicTestAccounts(): Set<string> {
  publicTestAddresses ??= new Set(
    Array.from({ length: PUBLIC_TEST_ACCOUNTS }, (_, i) =>
      HDNodeWallet.fromPhrase(LOCAL_DEV_MNEMONIC, undefined, localAccountPath(i)).address.toLowerCase(),
    ),
  );
  return publicTestAddresses;
}

/** True for 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}

/** What only code can say about a configuration: no variable sets it, so a copied .env cannot. */
export interface LoadOptions {
  /**
   * The chain is a stand-in this process started on this machine (the Sepolia-shaped rehearsal,
   * scripts/lib/rehearsal.ts), with its own Auth emulator: the emulator is allowed off the local chain.
   */
  standInChain?: boolean;
}

/** Why these settings are unsafe, or an empty list. */
export function unsafeSettings(env: EnvSettings, options: LoadOptions = {}): string[] {
  const problems: string[] = [];
  const local = env.NETWORK === "localhost";
  const emulatorHost = env.FIREBASE_AUTH_EMULATOR_HOST;

  if (emulatorHost) {
    // The emulator's tokens are unsigned: a server that names it believes any token it is shown.
    for (const name of ["GOOGLE_APPLICATION_CREDENTIALS", "FIREBASE_WEB_API_KEY"] as const) {
      if (env[name]) {
        problems.push(
          `FIREBASE_AUTH_EMULATOR_HOST and ${name} are both set: the Auth emulator accepts unsigned tokens, so a server with a real Firebase project's credentials must not name it. Unset FIREBASE_AUTH_EMULATOR_HOST to use the real project, or ${name} to stay on the emulator.`,
        );
      }
    }
    // Off the local chain it is refused whatever SERVER_HOST says: a loopback server behind a TLS
    // proxy (docs/DEPLOYMENT.md) is reachable from everywhere, and the guard cannot see the proxy.
    if (!local && !options.standInChain) {
      problems.push(
        `FIREBASE_AUTH_EMULATOR_HOST is set on a public network (NETWORK=${env.NETWORK}): the Auth emulator accepts unsigned tokens, so anyone who reaches the server, directly or through a proxy in front of it, could sign in as anyone. Use a real Firebase project (GOOGLE_APPLICATION_CREDENTIALS and FIREBASE_WEB_API_KEY) off the local chain.`,
      );
    }
  }
  if (local) return problems;

  // Off the local chain the minting key in use is MINTER_PRIVATE_KEY's (even with the bank off: it is kept).
  if (env.MINTER_PRIVATE_KEY && publicTestAccounts().has(new Wallet(env.MINTER_PRIVATE_KEY).address.toLowerCase())) {
    problems.push(
      "MINTER_PRIVATE_KEY is one of the local chain's public test keys: anyone can sign with it, so on a public network its MINTER_ROLE would be anyone's. Use a key of your own.",
    );
  }
  for (const wallet of env.ADMIN_WALLETS) {
    if (publicTestAccounts().has(wallet.toLowerCase())) {
      problems.push(
        `ADMIN_WALLETS lists ${wallet}, an account of the local chain's public test keys: anyone can sign in as it and get the admin claim. List only wallets whose keys you hold.`,
      );
    }
  }
  // Never undefined here: a missing RPC URL is refused before the guards are asked.
  const rpcUrl = rpcUrlOf(env) ?? "";
  if (env.PUBLIC_RPC_URL && env.PUBLIC_RPC_URL === rpcUrl) {
    problems.push(
      "PUBLIC_RPC_URL is the server's own RPC_URL: it is handed to every browser, and a provider's URL carries its API key. Give the dashboard a public endpoint of its own, or leave PUBLIC_RPC_URL empty (the wallet's node is used).",
    );
  }
  if (/^http:/i.test(rpcUrl) && !isLoopbackHost(hostOf(rpcUrl))) {
    problems.push(
      `RPC_URL '${new URL(rpcUrl).origin}' is plain http on another machine: the provider's key would cross the network in the clear, and anyone on the way could change what the chain seems to say. Use its https endpoint.`,
    );
  }
  if (env.RPC_WS_URL && /^ws:/i.test(env.RPC_WS_URL) && !isLoopbackHost(hostOf(env.RPC_WS_URL))) {
    problems.push(
      `RPC_WS_URL is plain ws to another machine (${hostOf(env.RPC_WS_URL) || "an unreadable host"}): the provider's key would cross the network in the clear, and anyone on the way could push false heads. Use its wss endpoint.`,
    );
  }
  for (const origin of env.DASHBOARD_ORIGIN) {
    if (origin.startsWith("http:") && !isLoopbackHost(hostOf(origin))) {
      problems.push(
        `DASHBOARD_ORIGIN '${origin}' is plain http on a public network: sign-in tokens would cross the network in the clear, and SIWE messages would name an origin anyone on the way can impersonate. Serve the dashboard over https.`,
      );
    }
  }
  return problems;
}
