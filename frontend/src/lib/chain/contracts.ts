import {
  BrowserProvider,
  Contract,
  JsonRpcProvider,
  Signature,
  type AddressLike,
  type BigNumberish,
  type BytesLike,
  type ContractRunner,
  type JsonRpcApiProvider,
} from "ethers";
import type { TypedContractMethod } from "@bindings/common";
import { PERMIT_TYPES, permitDomain } from "@common/permit";
import { SAFE_ABI, safeTypedData, type SafeTx } from "@common/safe";
import { USDX__factory } from "@bindings/factories/contracts/USDX__factory";
import { BatchPayments__factory } from "@bindings/factories/contracts/BatchPayments__factory";
import type { USDX } from "@bindings/contracts/USDX";
import type { BatchPayments } from "@bindings/contracts/BatchPayments";
import type { AppConfig } from "@/lib/config";
import type { Eip1193Provider } from "@/lib/wallet/store";

/**
 * The chain, through ethers and the generated bindings (the one source of ABIs). Loaded lazily:
 * ethers stays out of the first page load. Reads go to the Custom RPC URL (Settings), else the
 * configured public RPC, else the connected wallet; writes always go through the wallet.
 */

const readers = new Map<string, JsonRpcProvider>();

export function readProvider(config: AppConfig, rpcUrl: string | null, wallet: Eip1193Provider | null): JsonRpcApiProvider {
  if (rpcUrl) {
    let provider = readers.get(rpcUrl);
    if (!provider) {
      provider = new JsonRpcProvider(rpcUrl, config.chainId, { staticNetwork: true, cacheTimeout: -1 });
      readers.set(rpcUrl, provider);
    }
    return provider;
  }
  if (wallet) return new BrowserProvider(wallet, config.chainId);
  throw new Error("No way to read the chain: connect a wallet, or set a Custom RPC URL in Settings.");
}

export function usdxReader(config: AppConfig, provider: JsonRpcApiProvider): USDX {
  return USDX__factory.connect(config.contracts.proxy, provider);
}

/** The dashboard's contracts, bound to the wallet's signer (writes) or to the read provider (dry runs). */
export interface WriteContracts {
  usdx: USDX;
  batch: BatchPayments;
  /** A Safe at `address` on the same binding: an owner executes a proposal through the runner like any write. */
  safe(address: string): SafeContract;
}

/**
 * The Safe (v1.4.1) methods the dashboard calls, typed the way the bindings type USDX's: Safe's ABI
 * is common/safe.ts's, not a binding of ours, so these two are declared here.
 */
export interface SafeContract {
  nonce: TypedContractMethod<[], [bigint], "view">;
  execTransaction: TypedContractMethod<
    [
      to: AddressLike,
      value: BigNumberish,
      data: BytesLike,
      operation: BigNumberish,
      safeTxGas: BigNumberish,
      baseGas: BigNumberish,
      gasPrice: BigNumberish,
      gasToken: AddressLike,
      refundReceiver: AddressLike,
      signatures: BytesLike,
    ],
    [boolean],
    "payable"
  >;
}

export function safeContract(address: string, runner: ContractRunner): SafeContract {
  return new Contract(address, SAFE_ABI, runner) as unknown as SafeContract;
}

/**
 * The contracts bound to the read provider: a write's dry run (lib/tx/dryRun.ts) calls the same
 * method here with `from` set to the wallet's address, so the wallet is not asked anything.
 */
export function readContracts(config: AppConfig, provider: JsonRpcApiProvider): WriteContracts {
  return {
    usdx: usdxReader(config, provider),
    batch: BatchPayments__factory.connect(config.contracts.batchPayments, provider),
    safe: (address) => safeContract(address, provider),
  };
}

/**
 * The chain id the provider answers for, asked now. The read provider of a URL is built with a
 * static network (no eth_chainId before each read), and a Custom RPC URL was probed only once,
 * when it was saved: a dry run asks again rather than trust a node that may since have changed.
 */
export async function readChainId(provider: JsonRpcApiProvider): Promise<number> {
  return Number(await provider.send("eth_chainId", []));
}

/** The contracts bound to the wallet's signer for `address`. */
export async function writeContracts(config: AppConfig, wallet: Eip1193Provider, address: string): Promise<WriteContracts> {
  const signer = await new BrowserProvider(wallet, config.chainId).getSigner(address);
  return {
    usdx: USDX__factory.connect(config.contracts.proxy, signer),
    batch: BatchPayments__factory.connect(config.contracts.batchPayments, signer),
    safe: (address) => safeContract(address, signer),
  };
}

export interface SignedPermit {
  value: bigint;
  deadline: bigint;
  v: number;
  r: string;
  s: string;
}

/**
 * Asks the wallet for one EIP-2612 permit (eth_signTypedData_v4) letting BatchPayments move `value`
 * of `owner`'s USDX until `deadline` (Unix seconds): the one signature of a batch payment. A
 * rejection in the wallet throws, as a transaction's does (the runner's describeError reads it).
 */
export async function signBatchPermit(
  config: AppConfig,
  wallet: Eip1193Provider,
  owner: string,
  value: bigint,
  deadline: bigint,
): Promise<SignedPermit> {
  const signer = await new BrowserProvider(wallet, config.chainId).getSigner(owner);
  const usdx = USDX__factory.connect(config.contracts.proxy, signer);
  const nonce = await usdx.nonces(owner);
  const message = { owner, spender: config.contracts.batchPayments, value, nonce, deadline };
  const signature = Signature.from(await signer.signTypedData(permitDomain(config.chainId, config.contracts.proxy), PERMIT_TYPES, message));
  return { value, deadline, v: signature.v, r: signature.r, s: signature.s };
}

/**
 * Asks the wallet to sign `tx` for `safe` as one of its owners (eth_signTypedData_v4 of the SafeTx,
 * domain: this chain and the Safe): a proposal's first approval, or a later one. A rejection in the
 * wallet throws, as a transaction's does. The signature comes back with v 27 or 28 whatever the
 * wallet gave (some hardware wallets answer 0 or 1), since Safe reads any other v as another kind.
 */
export async function signSafeTx(config: AppConfig, wallet: Eip1193Provider, owner: string, safe: string, tx: SafeTx): Promise<string> {
  const signer = await new BrowserProvider(wallet, config.chainId).getSigner(owner);
  const { domain, types, message } = safeTypedData(config.chainId, safe, tx);
  // ethers wants the field lists mutable; common/safe.ts declares them `as const` for its readers.
  const fields = { SafeTx: types.SafeTx.map((field) => ({ ...field })) };
  return Signature.from(await signer.signTypedData(domain, fields, message)).serialized;
}

/** The Safe's nonce at the latest block: the nonce of the next transaction it will execute. */
export async function readSafeNonce(provider: JsonRpcApiProvider, safe: string): Promise<bigint> {
  return safeContract(safe, provider).nonce();
}

export type { USDX, BatchPayments };
