import { type RequestHandler, Router } from "express";
import { z } from "zod";
import { API, type EndpointKey } from "@common/api";
import type { Endpoint } from "@common/api/endpoint";
import { currentUser, requireUser } from "../middleware/auth";
import { clientAddress, perUserRateLimit } from "../middleware/rateLimits";
import { parse } from "../middleware/validate";
import { badRequest, unavailable } from "../lib/errors";
import type { Services } from "../services";
import { declaredRoutes } from "./declared";

/**
 * Checks a declared body in the bank's words, before the declared validation (which then passes):
 * a required field that is absent, null or blank answers 'Missing Information: {missing} (missing:
 * ...)'; a wrong one '{title}: ...' with every problem. A path id is checked first, as the bank
 * always has. Required are the fields the declared body does not mark optional; each one's
 * declaration refuses a blank text too, so the document says what this answers as missing.
 */
function bankBody(key: EndpointKey, missing: string, title: (field: string) => string): RequestHandler {
  const endpoint: Endpoint = API[key];
  const schema = endpoint.body;
  if (!(schema instanceof z.ZodObject)) throw new Error(`${key} declares no object body`);
  const required = Object.entries(schema.shape as Record<string, z.ZodType>)
    .filter(([, field]) => !field.safeParse(undefined).success)
    .map(([name]) => name);
  return (req, _res, next) => {
    if (endpoint.params) parse(endpoint.params, req.params, "path");
    const body: unknown = req.body;
    const fields = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const absent = required.filter((name) => {
      const value = fields[name];
      return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
    });
    if (absent.length > 0) throw badRequest(`Missing Information: ${missing} (missing: ${absent.join(", ")}).`);
    const result = schema.safeParse(fields);
    if (!result.success) {
      const first = String(result.error.issues[0].path[0] ?? "");
      // Each problem once: a field's two rules may word one problem alike.
      throw badRequest(`${title(first)}: ${[...new Set(result.error.issues.map((i) => i.message))].join("; ")}.`);
    }
    next();
  };
}

/**
 * /api/bank (common/api/bank.ts): the mock bank (accounts, wallets, deposits). Every answer says
 * `mock: true`; each user sees and changes only their own rows, and another user's id answers 404
 * like a missing one.
 */
export function bankRoutes(services: Services): Router {
  const router = Router();
  const { bank } = services;
  // Off (MOCK_BANK, or refused on a mainnet or the wrong chain): every route says why.
  router.use((_req, _res, next) => next(bank.enabled ? undefined : unavailable(bank.offReason!)));
  router.use(requireUser(services.auth));
  const on = declaredRoutes(router, "/api/bank");
  // Per user, each its own budget (MOCK_BANK_WRITES_PER_MINUTE): what creates rows or mints.
  const accountLimit = perUserRateLimit(services.rateLimits, "bank-accounts", "new bank accounts");
  const walletLimit = perUserRateLimit(services.rateLimits, "bank-wallets", "wallet requests");
  const depositLimit = perUserRateLimit(services.rateLimits, "bank-deposits", "deposit requests");
  const mock = { success: true, mock: true } as const;

  on("GET /api/bank/terms", [], async (_input, res) => ({ ...mock, ...(await bank.terms(currentUser(res).uid)) }));

  on("GET /api/bank/accounts", [], async (_input, res) => ({ ...mock, accounts: await bank.listAccounts(currentUser(res).uid) }));

  on(
    "POST /api/bank/accounts",
    [
      accountLimit,
      bankBody(
        "POST /api/bank/accounts",
        "please provide the account name, type, account number and routing number",
        () => "Invalid Bank Account",
      ),
    ],
    async ({ body }, res) => ({ ...mock, account: await bank.addAccount(currentUser(res).uid, body) }),
  );

  on("DELETE /api/bank/accounts/:id", [], async ({ params }, res) => {
    await bank.removeAccount(currentUser(res).uid, params.id);
    return { ...mock, id: params.id };
  });

  on("GET /api/bank/wallets", [], async (_input, res) => ({ ...mock, wallets: await bank.listWallets(currentUser(res)) }));

  // A message to sign with the wallet, proving the user controls it (the test faucet mints only to those).
  on(
    "POST /api/bank/wallets/challenge",
    [walletLimit, bankBody("POST /api/bank/wallets/challenge", "please provide the wallet address to prove", () => "Invalid Address")],
    async ({ body }, res) => ({ ...mock, ...(await bank.issueWalletChallenge(currentUser(res), body.address)) }),
  );

  on(
    "POST /api/bank/wallets",
    [
      walletLimit,
      bankBody("POST /api/bank/wallets", "please provide the wallet name and address", (field) =>
        field === "address" ? "Invalid Address" : "Invalid Wallet",
      ),
    ],
    async ({ body }, res) => {
      const proof = body.challenge && body.signature ? { challenge: body.challenge, signature: body.signature } : undefined;
      return { ...mock, wallet: await bank.addWallet(currentUser(res), { name: body.name, address: body.address, proof }) };
    },
  );

  on(
    "POST /api/bank/wallets/:id/verify",
    [
      walletLimit,
      bankBody("POST /api/bank/wallets/:id/verify", "please send the challenge and its signature", () => "Wallet Not Verified"),
    ],
    async ({ params, body }, res) => ({ ...mock, wallet: await bank.verifyWallet(currentUser(res), params.id, body) }),
  );

  on("POST /api/bank/wallets/:id/primary", [], async ({ params }, res) => ({
    ...mock,
    wallet: await bank.setPrimaryWallet(currentUser(res).uid, params.id),
  }));

  on("DELETE /api/bank/wallets/:id", [], async ({ params }, res) => {
    await bank.removeWallet(currentUser(res).uid, params.id);
    return { ...mock, id: params.id };
  });

  on("GET /api/bank/deposits", [], async (_input, res) => ({ ...mock, deposits: await bank.listDeposits(currentUser(res).uid) }));

  on("GET /api/bank/deposits/:id", [], async ({ params }, res) => ({
    ...mock,
    deposit: await bank.getDeposit(currentUser(res).uid, params.id),
  }));

  on(
    "POST /api/bank/deposits",
    [
      depositLimit,
      bankBody("POST /api/bank/deposits", "please choose the bank account to deposit from and enter an amount", () => "Invalid Deposit"),
    ],
    async ({ body }, res, req) => ({ ...mock, deposit: await bank.createDeposit(currentUser(res), body, clientAddress(req)) }),
  );

  return router;
}
