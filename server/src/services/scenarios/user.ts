import type { Provider, Signer } from "ethers";
import type { BankAccount, BankWallet, BankWalletChallenge, Contact } from "@common/apiTypes";
import { CONTACTS_LIST_LIMIT_MAX } from "@common/api/contacts";
import { plural, shortAddress } from "@common/wording";
import type { UserPart } from "./apply";
import type { ApplyResult, PlanStep, ScenarioProgress } from "./index";
import { ApiClient, type UserApi, UserPartRefused } from "./userApi";
import { type BatchContext, type UserAction, planBatch } from "./userBatch";
import type { ScenarioUser } from "./userSchema";

/**
 * A scenario's Firebase test user (issue 31, part 1), applied through the running API server as a
 * client would, so the server checks everything: the user made in the Auth emulator (or signed in,
 * when it exists), then what is missing of their contacts and bank accounts (each found by name),
 * their wallet added to the mock bank's, proved by its signature, and their batch job half paid
 * (./userBatch.ts). A second apply plans nothing.
 *
 * The records belong to the email user, whom a tester signs in as. A wallet sign-in (SIWE) is a
 * Firebase user of its own (uid wallet:<address>) that this API never joins to an email account;
 * the one link it keeps between the two is the bank wallet proved by the wallet's signature, which
 * is what `wallet` makes. A batch's payer is named in the job (execute's `payer`), so the user need
 * not sign in with it.
 */

export type { UserApi } from "./userApi";
export { UserPartRefused } from "./userApi";

/** The scenario's accounts, as the engine knows them: each name's address, and a signer for it on the node (its key, or the node's unlocked or impersonated account). */
export interface ScenarioAccounts {
  address(name: string): string;
  signer(name: string): Promise<Signer>;
}

/** The chain the user part pays on: the node, and the scenario's accounts. */
export interface UserChain {
  provider: Provider;
  accounts: ScenarioAccounts;
}

/** An account name of the scenario, as an address; an unknown name in the field's words. */
function addressOf(chain: UserChain, field: string, name: string): string {
  if (/^\s*0x/i.test(name)) return name.trim();
  try {
    return chain.accounts.address(name);
  } catch {
    throw new UserPartRefused(`user.${field}: the scenario has no account named '${name}'.`);
  }
}

/**
 * What the batch still needs of its payer on chain: the token unpaused and the payer unblocked while
 * it starts and pays, and the shares its transfers take, which the engine mints to the payer first
 * so that it ends at the scenario's balance.
 */
export interface UserPayments {
  payer: string;
  address: string;
  /** Each transfer's amount (none when the job is only to be started). */
  amounts: bigint[];
}

interface UserPlan {
  actions: UserAction[];
  report: string[];
  payments: UserPayments | null;
}

/** The steps the user's state needs, planned from what the API holds now; nothing is changed here but a session. */
async function planActions(client: ApiClient, chain: UserChain, user: ScenarioUser): Promise<UserPlan> {
  const session = await client.signIn(user.email, user.password, false);
  let token = session?.idToken ?? null;
  const actions: UserAction[] = [];
  const as = () => token!;
  if (!session)
    actions.push({
      label: `create the Firebase test user ${user.email}`,
      transactions: 0,
      run: async () => {
        token = (await client.signIn(user.email, user.password, true))!.idToken;
      },
    });

  // Contacts, by name: a missing one is added, one with another address or notes is changed.
  const contacts = token
    ? (
        await client.call<{ contacts: Contact[] }>(
          "list the user's contacts",
          "GET",
          `/api/contacts?limit=${CONTACTS_LIST_LIMIT_MAX}`,
          token,
        )
      ).contacts
    : [];
  user.contacts.forEach((wanted, i) => {
    const address = addressOf(chain, `contacts[${i}].address`, wanted.address);
    const body = { name: wanted.name, address, notes: wanted.notes ?? null };
    const held = contacts.find((c) => c.name === wanted.name);
    if (!held)
      actions.push({
        label: `add the contact ${wanted.name} (${shortAddress(address)})`,
        transactions: 0,
        run: () => client.call(`add the contact ${wanted.name}`, "POST", "/api/contacts", as(), body),
      });
    else if (held.address.toLowerCase() !== address.toLowerCase() || (wanted.notes !== undefined && (held.notes ?? "") !== wanted.notes))
      actions.push({
        label: `change the contact ${wanted.name} to ${shortAddress(address)}${wanted.notes !== undefined ? ", with its notes" : ""}`,
        transactions: 0,
        run: () => client.call(`change the contact ${wanted.name}`, "PATCH", `/api/contacts/${held.id}`, as(), body),
      });
  });

  // Bank accounts, by name (the bank keeps only the last four digits: a changed number is not seen).
  if (user.bankAccounts.length > 0) {
    const accounts = token
      ? (await client.call<{ accounts: BankAccount[] }>("list the user's bank accounts", "GET", "/api/bank/accounts", token)).accounts
      : [];
    for (const wanted of user.bankAccounts) {
      if (accounts.some((a) => a.name === wanted.name)) continue;
      actions.push({
        label: `add the bank account ${wanted.name} (${wanted.type}, ending ${wanted.accountNumber.slice(-4)})`,
        transactions: 0,
        run: () => client.call(`add the bank account ${wanted.name}`, "POST", "/api/bank/accounts", as(), wanted),
      });
    }
  }

  // The wallet, in the mock bank's wallets, proved by its signature of the bank's challenge.
  if (user.wallet) {
    const name = user.wallet;
    const address = addressOf(chain, "wallet", name);
    const wallets = token
      ? (await client.call<{ wallets: BankWallet[] }>("list the user's wallets", "GET", "/api/bank/wallets", token)).wallets
      : [];
    const held = wallets.find((w) => w.address.toLowerCase() === address.toLowerCase());
    const proof = async () => {
      const challenge = await client.call<BankWalletChallenge>(
        "ask the bank for a wallet challenge",
        "POST",
        "/api/bank/wallets/challenge",
        as(),
        {
          address,
        },
      );
      const signature = await (await chain.accounts.signer(name)).signMessage(challenge.message).catch((error: unknown) => {
        throw new UserPartRefused(
          `user.wallet: ${name} cannot sign the bank's challenge (${(error as Error).message}): name an account whose key the scenario knows.`,
        );
      });
      return { challenge: challenge.challenge, signature };
    };
    if (!held)
      actions.push({
        label: `add the wallet ${name} (${shortAddress(address)}) to the user's bank wallets, signed by it`,
        transactions: 0,
        run: async () => {
          await client.call(`add the wallet ${name}`, "POST", "/api/bank/wallets", as(), { name, address, ...(await proof()) });
        },
      });
    else if (!held.verified)
      actions.push({
        label: `prove the wallet ${name} (${shortAddress(address)}) with its signature`,
        transactions: 0,
        run: async () => {
          await client.call(`prove the wallet ${name}`, "POST", `/api/bank/wallets/${held.id}/verify`, as(), await proof());
        },
      });
  }

  const report = [`Firebase test user: ${user.email}, password ${user.password} (sign in to the dashboard with them).`];
  let payments: UserPayments | null = null;
  if (user.batch) {
    const payerName = user.batch.payer ?? user.wallet!;
    const payer = { name: payerName, address: addressOf(chain, "batch.payer", payerName), signer: () => chain.accounts.signer(payerName) };
    const context: BatchContext = { token: as, job: null };
    const batch = await planBatch(client, chain.provider, user.email, user.batch, payer, token, context);
    actions.push(...batch.actions);
    if (batch.payer) payments = { payer: payerName, address: payer.address, amounts: batch.payer.amounts };
    report.push(
      `Its batch job '${user.batch.name}': ${plural(user.batch.recipients, "recipient")}, ${paidText(user.batch.paidChunks)}; its payer ${payerName} (${shortAddress(payer.address)}).`,
    );
  }
  return { actions, report, payments };
}

/** "none of its chunks paid yet", "the first chunk paid", "the first 3 chunks paid". */
const paidText = (chunks: number): string =>
  chunks === 0 ? "none of its chunks paid yet" : chunks === 1 ? "the first chunk paid" : `the first ${chunks} chunks paid`;

/** The user part's plan, in words: empty when the API already holds the user's state. Refuses (UserPartRefused) a server off the local chain, before anything. */
export async function planUser(api: UserApi, chain: UserChain, user: ScenarioUser): Promise<PlanStep[]> {
  return (await planUserPayments(api, chain, user)).steps;
}

/**
 * The plan with what its batch needs of the payer (null without a batch, or when it needs nothing). A batch moves
 * the payer's balance away from the one the scenario states: the engine mints this much more to the
 * payer before the user part, so the payer ends at its balance and a second apply sends nothing.
 */
export async function planUserPayments(
  api: UserApi,
  chain: UserChain,
  user: ScenarioUser,
): Promise<{ steps: PlanStep[]; payments: UserPayments | null }> {
  const { actions, payments } = await planActions(await ApiClient.open(api), chain, user);
  return { steps: actions.map((a) => ({ label: a.label })), payments };
}

/** Plans, then runs each step in order, telling `onProgress` after each. */
export async function applyUser(
  api: UserApi,
  chain: UserChain,
  user: ScenarioUser,
  onProgress: (progress: ScenarioProgress) => void = () => undefined,
): Promise<ApplyResult> {
  const { actions, report } = await planActions(await ApiClient.open(api), chain, user);
  for (const [i, action] of actions.entries()) {
    await action.run();
    onProgress({ done: i + 1, total: actions.length, label: action.label });
  }
  return { sent: actions.length, steps: actions.map((a) => ({ label: a.label })), report };
}

/**
 * The engine's hook (apply.ts's UserPart): the file's user part through the API server at `api`,
 * planned from what the server holds. Refuses, before anything is sent, a server off the local
 * chain or one that follows another USDX than the chain the scenario is applied to.
 */
export function userPartThrough(api: UserApi): UserPart {
  return async (scenario, ctx) => {
    const client = await ApiClient.open(api);
    if (client.config.contracts.proxy.toLowerCase() !== ctx.manifest.proxy.toLowerCase())
      throw new UserPartRefused(
        `The API server at ${api.url} follows the USDX at ${client.config.contracts.proxy}, and this chain's is at ${ctx.manifest.proxy}: start the server on this chain, or pass its address. Nothing was sent.`,
      );
    const chain: UserChain = { provider: ctx.provider, accounts: { address: ctx.addressOf, signer: ctx.signer } };
    const { actions, report, payments } = await planActions(client, chain, scenario.user!);
    return { actions, report, payer: payments && { address: payments.address, amounts: payments.amounts } };
  };
}
