/**
 * The development wallet: an EIP-1193 provider that acts as one seeded account of the local chain
 * by forwarding every request to the Hardhat node, which holds those accounts unlocked and signs for
 * them (transactions, personal_sign, typed data). Offered only when the dashboard runs on the local
 * chain. It imports nothing, so the browser tests can inject the same code as a page script.
 */

export interface RpcError extends Error {
  code: number;
  data?: unknown;
}

function rpcError(code: number, message: string, data?: unknown): RpcError {
  return Object.assign(new Error(message), { code, data });
}

/** The EIP-1193 events this wallet emits or accepts listeners for, and what each hands its listener. */
interface DevWalletEvents {
  accountsChanged: (accounts: string[]) => void;
  chainChanged: (chainId: string) => void;
}

export interface DevWalletProvider {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>;
  on<E extends keyof DevWalletEvents>(event: E, listener: DevWalletEvents[E]): void;
  removeListener<E extends keyof DevWalletEvents>(event: E, listener: DevWalletEvents[E]): void;
  /** Act as another seeded account (the wallet's "switch account"): emits accountsChanged. */
  setAccount(address: string): void;
  /** The next request that needs the user's consent is refused with 4001, as a person might. */
  rejectNextRequest(): void;
  /** The JSON-RPC methods asked of it, oldest first (the last 500): the browser tests read what the page asked the wallet. */
  readonly requests: readonly string[];
  readonly isDevWallet: true;
  readonly address: string;
}

/** How many requests `requests` keeps: enough for a test, bounded for a long development session. */
const REQUEST_LOG_SIZE = 500;

/** Requests a real wallet would ask its user to approve: these can be rejected. */
const CONSENT_METHODS = new Set([
  "eth_requestAccounts",
  "eth_sendTransaction",
  "personal_sign",
  "eth_signTypedData_v4",
  "wallet_switchEthereumChain",
]);

export function createDevWallet(rpcUrl: string, initialAddress: string, fetcher: typeof fetch = (...a) => fetch(...a)): DevWalletProvider {
  let address = initialAddress;
  let rejectNext = false;
  let nextId = 1;
  const requests: string[] = [];
  const listeners: { [E in keyof DevWalletEvents]: Set<DevWalletEvents[E]> } = { accountsChanged: new Set(), chainChanged: new Set() };

  async function forward(method: string, params: unknown): Promise<unknown> {
    let res: Response;
    try {
      res = await fetcher(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: params ?? [] }),
      });
    } catch {
      // EIP-1193's "disconnected" code: the node is not answering.
      throw rpcError(4900, `The local Hardhat node at ${rpcUrl} is not answering. Is npm start still running?`);
    }
    const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
    if (body.error) throw rpcError(body.error.code, body.error.message, body.error.data);
    return body.result;
  }

  const provider: DevWalletProvider = {
    isDevWallet: true,
    get address() {
      return address;
    },
    requests,
    async request({ method, params }) {
      requests.push(method);
      if (requests.length > REQUEST_LOG_SIZE) requests.shift();
      const list = Array.isArray(params) ? params : [];
      if (CONSENT_METHODS.has(method) && rejectNext) {
        rejectNext = false;
        throw rpcError(4001, "User rejected the request.");
      }
      switch (method) {
        case "eth_requestAccounts":
        case "eth_accounts":
          return [address];
        case "wallet_switchEthereumChain": {
          const wanted = (list[0] as { chainId?: string } | undefined)?.chainId;
          const current = (await forward("eth_chainId", [])) as string;
          if (wanted && parseInt(wanted, 16) !== parseInt(current, 16)) {
            throw rpcError(4902, `The development wallet only knows the local chain (${parseInt(current, 16)}).`);
          }
          return null;
        }
        case "wallet_addEthereumChain":
          throw rpcError(4200, "The development wallet only knows the local chain.");
        case "wallet_revokePermissions":
        case "wallet_requestPermissions":
          return [];
        case "eth_sendTransaction": {
          // Always from the account the wallet acts as, whatever the page asked.
          const tx = { ...(list[0] as object), from: address };
          return forward(method, [tx]);
        }
        default:
          return forward(method, params);
      }
    },
    on(event, listener) {
      listeners[event]?.add(listener);
    },
    removeListener(event, listener) {
      listeners[event]?.delete(listener);
    },
    setAccount(next) {
      if (next.toLowerCase() === address.toLowerCase()) return;
      address = next;
      listeners.accountsChanged.forEach((listener) => listener([address]));
    },
    rejectNextRequest() {
      rejectNext = true;
    },
  };
  return provider;
}
