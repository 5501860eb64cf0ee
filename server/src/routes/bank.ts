import { Router } from "express";
import { z } from "zod";
import { currentUser, requireUser } from "../middleware/auth";
import { perUserRateLimit } from "../middleware/rateLimits";
import { parse } from "../middleware/validate";
import { badRequest, unavailable } from "../errors";
import type { WalletProof } from "../services/bank";
import type { Services } from "../services";

// serial ids are Postgres integers.
const MAX_ID = 2_147_483_647;
const ID_TEXT = /^\d{1,10}$/;

/** An id as a JSON number or a string of digits (form values are strings). */
const id = (what: string) =>
  z.union(
    [
      z.number().int().min(1).max(MAX_ID),
      z
        .string()
        .regex(ID_TEXT)
        .transform(Number)
        .pipe(z.number().min(1).max(MAX_ID)),
    ],
    { message: `${what} must be the id (a whole number) of one of yours` },
  );

const pathId = z.object({ id: z.string().regex(ID_TEXT, "must be a whole number").transform(Number).pipe(z.number().min(1).max(MAX_ID)) });

// As for contacts: no control characters (Postgres refuses a NUL outright) and no bidi overrides.
const NAME_FORBIDDEN = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

const name = (what: string) =>
  z
    .string({ message: `the ${what} name must be text` })
    .max(100, `the ${what} name must be at most 100 characters`)
    .refine((text) => !NAME_FORBIDDEN.test(text), `the ${what} name cannot contain control characters such as line breaks or tabs`);

const accountBody = z.object({
  name: name("account"),
  type: z.enum(["checking", "savings"], { message: "the type must be 'checking' or 'savings'" }),
  accountNumber: z.string({ message: "the account number must be text of 4 to 17 digits" }).max(40, "the account number must be 4 to 17 digits"),
  routingNumber: z.string({ message: "the routing number must be text of exactly 9 digits" }).max(40, "the routing number must be exactly 9 digits"),
});

const address = z.string({ message: "the address must be text: 0x followed by 40 hex characters" }).max(100, "the address must be 0x followed by 40 hex characters");
const challenge = z.string({ message: "the challenge must be the text the server issued" }).regex(/^[0-9a-f]{32}$/, "the challenge must be the 32 hex characters the server issued");
const signature = z
  .string({ message: "the signature must be text: 0x followed by 130 hex characters" })
  .regex(/^0x[0-9a-fA-F]{130}$/, "the signature must be 0x followed by 130 hex characters");

const walletBody = z
  .object({ name: name("wallet"), address, challenge: challenge.optional(), signature: signature.optional() })
  .refine((b) => (b.challenge === undefined) === (b.signature === undefined), { message: "send both the challenge and its signature, or neither", path: ["signature"] });

const challengeBody = z.object({ address });
const proofBody = z.object({ challenge, signature });

const depositBody = z.object({
  bankAccountId: id("bankAccountId"),
  amount: z.string({ message: "the amount must be a decimal string in US dollars, such as '125.50'" }).max(40, "the amount is too long"),
  walletId: id("walletId")
    .nullish()
    .transform((v) => v ?? undefined),
});

/**
 * Reads a JSON body: a required field that is absent, null or blank answers
 * 'Missing Information: ...'; a wrong type answers '<title>: ...' with every problem.
 */
function readBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  required: readonly string[],
  missing: string,
  title: (field: string) => string,
): z.infer<S> {
  const fields = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const absent = required.filter((key) => {
    const value = fields[key];
    return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
  });
  if (absent.length > 0) throw badRequest(`Missing Information: ${missing} (missing: ${absent.join(", ")}).`);
  const result = schema.safeParse(fields);
  if (result.success) return result.data;
  const first = String(result.error.issues[0].path[0] ?? "");
  throw badRequest(`${title(first)}: ${result.error.issues.map((i) => i.message).join("; ")}.`);
}

/**
 * /api/bank: the mock bank (accounts, wallets, deposits). Every answer says `mock: true`; each user
 * sees and changes only their own rows, and another user's id answers 404 like a missing one.
 */
export function bankRoutes(services: Services): Router {
  const router = Router();
  const { bank } = services;
  // Off (MOCK_BANK, or refused on a mainnet or the wrong chain): every route says why.
  router.use((_req, _res, next) => next(bank.enabled ? undefined : unavailable(bank.offReason!)));
  router.use(requireUser(services.auth));
  // Per user, each its own budget (MOCK_BANK_WRITES_PER_MINUTE): what creates rows or mints.
  const perMinute = services.config.bank.writesPerMinute;
  const accountLimit = perUserRateLimit(services.rateLimits, "bank-accounts", perMinute, "new bank accounts");
  const walletLimit = perUserRateLimit(services.rateLimits, "bank-wallets", perMinute, "wallet requests");
  const depositLimit = perUserRateLimit(services.rateLimits, "bank-deposits", perMinute, "deposit requests");

  router.get("/terms", async (_req, res) => {
    res.json({ success: true, mock: true, ...(await bank.terms(currentUser(res).uid)) });
  });

  router.get("/accounts", async (_req, res) => {
    res.json({ success: true, mock: true, accounts: await bank.listAccounts(currentUser(res).uid) });
  });

  router.post("/accounts", accountLimit, async (req, res) => {
    const body = readBody(
      accountBody,
      req.body,
      ["name", "type", "accountNumber", "routingNumber"],
      "please provide the account name, type, account number and routing number",
      () => "Invalid Bank Account",
    );
    res.status(201).json({ success: true, mock: true, account: await bank.addAccount(currentUser(res).uid, body) });
  });

  router.delete("/accounts/:id", async (req, res) => {
    const { id } = parse(pathId, req.params, "path");
    await bank.removeAccount(currentUser(res).uid, id);
    res.json({ success: true, mock: true, id });
  });

  router.get("/wallets", async (_req, res) => {
    res.json({ success: true, mock: true, wallets: await bank.listWallets(currentUser(res)) });
  });

  // A message to sign with the wallet, proving the user controls it (the test faucet mints only to those).
  router.post("/wallets/challenge", walletLimit, async (req, res) => {
    const body = readBody(challengeBody, req.body, ["address"], "please provide the wallet address to prove", () => "Invalid Address");
    res.status(201).json({ success: true, mock: true, ...(await bank.issueWalletChallenge(currentUser(res), body.address)) });
  });

  router.post("/wallets", walletLimit, async (req, res) => {
    const body = readBody(walletBody, req.body, ["name", "address"], "please provide the wallet name and address", (field) =>
      field === "address" ? "Invalid Address" : "Invalid Wallet",
    );
    const proof: WalletProof | undefined = body.challenge && body.signature ? { challenge: body.challenge, signature: body.signature } : undefined;
    res.status(201).json({ success: true, mock: true, wallet: await bank.addWallet(currentUser(res), { name: body.name, address: body.address, proof }) });
  });

  router.post("/wallets/:id/verify", walletLimit, async (req, res) => {
    const { id } = parse(pathId, req.params, "path");
    const body = readBody(proofBody, req.body, ["challenge", "signature"], "please send the challenge and its signature", () => "Wallet Not Verified");
    res.json({ success: true, mock: true, wallet: await bank.verifyWallet(currentUser(res), id, body) });
  });

  router.post("/wallets/:id/primary", async (req, res) => {
    const { id } = parse(pathId, req.params, "path");
    res.json({ success: true, mock: true, wallet: await bank.setPrimaryWallet(currentUser(res).uid, id) });
  });

  router.delete("/wallets/:id", async (req, res) => {
    const { id } = parse(pathId, req.params, "path");
    await bank.removeWallet(currentUser(res).uid, id);
    res.json({ success: true, mock: true, id });
  });

  router.get("/deposits", async (_req, res) => {
    res.json({ success: true, mock: true, deposits: await bank.listDeposits(currentUser(res).uid) });
  });

  router.get("/deposits/:id", async (req, res) => {
    const { id } = parse(pathId, req.params, "path");
    res.json({ success: true, mock: true, deposit: await bank.getDeposit(currentUser(res).uid, id) });
  });

  router.post("/deposits", depositLimit, async (req, res) => {
    const body = readBody(
      depositBody,
      req.body,
      ["bankAccountId", "amount"],
      "please choose the bank account to deposit from and enter an amount",
      () => "Invalid Deposit",
    );
    res.status(201).json({ success: true, mock: true, deposit: await bank.createDeposit(currentUser(res), body) });
  });

  return router;
}
