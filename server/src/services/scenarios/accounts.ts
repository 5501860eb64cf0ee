import { HDNodeWallet, Wallet, dataSlice, getAddress, keccak256, toUtf8Bytes } from "ethers";
import { LOCAL_DEV_MNEMONIC } from "@common/seedAccounts";
import type { Scenario } from "./schema";

/*
 * Who a scenario names, as addresses: accounts of the local mnemonic by index, keys generated from
 * the scenario's and the account's names, and the crowd of holders. Everything is derived, never
 * random, so applying a file again finds the same addresses.
 */

export interface NamedAccount {
  name: string;
  address: string;
  /** Its index in the local mnemonic, or null for a generated key. */
  index: number | null;
  /** A generated key's private key, printed so a tester can import it; null for the mnemonic's. */
  privateKey: string | null;
}

let mnemonicRoot: HDNodeWallet | null = null;
const byIndex = new Map<number, string>();

/** Account `index` of Hardhat's test mnemonic (m/44'/60'/0'/0/index). */
export function mnemonicAddress(index: number): string {
  let address = byIndex.get(index);
  if (!address) {
    mnemonicRoot ??= HDNodeWallet.fromPhrase(LOCAL_DEV_MNEMONIC, undefined, "m/44'/60'/0'/0");
    address = mnemonicRoot.deriveChild(index).address;
    byIndex.set(index, address);
  }
  return address;
}

/** The key of account `index` of Hardhat's test mnemonic: a scenario's user part signs the bank's challenge with it. */
export function mnemonicKey(index: number): string {
  mnemonicRoot ??= HDNodeWallet.fromPhrase(LOCAL_DEV_MNEMONIC, undefined, "m/44'/60'/0'/0");
  return mnemonicRoot.deriveChild(index).privateKey;
}

/** A test key of this scenario's: the same scenario and account name give the same key. */
export function generatedKey(scenario: string, account: string): string {
  return keccak256(toUtf8Bytes(`usdx scenario ${scenario}: account ${account}`));
}

/** The scenario's accounts, in the file's order. */
export function namedAccounts(scenario: Scenario): NamedAccount[] {
  return Object.entries(scenario.accounts).map(([name, spec]) => {
    if (spec.index !== undefined) return { name, address: mnemonicAddress(spec.index), index: spec.index, privateKey: null };
    const privateKey = generatedKey(scenario.name, name);
    return { name, address: new Wallet(privateKey).address, index: null, privateKey };
  });
}

/** Holder `i` of the scenario's crowd: an address nobody holds a key for. */
export function crowdAddress(scenario: string, i: number): string {
  return getAddress(dataSlice(keccak256(toUtf8Bytes(`usdx scenario ${scenario}: holder ${i}`)), 12));
}

/** A small seeded generator (mulberry32) for a generated history: the same name, the same history. */
export function seededRandom(seed: string): () => number {
  let state = Number.parseInt(keccak256(toUtf8Bytes(seed)).slice(2, 10), 16) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
