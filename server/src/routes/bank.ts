import { Router } from "express";
import { z } from "zod";
import { currentUser, requireUser } from "../middleware/auth";
import { parse } from "../middleware/validate";
import { badRequest, unavailable } from "../errors";
import { BANK_OFF_MESSAGE } from "../services/bank";
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

const walletBody = z.object({
  name: name("wallet"),
  address: z.string({ message: "the address must be text: 0x followed by 40 hex characters" }).max(100, "the address must be 0x followed by 40 hex characters"),
});

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
  router.use((_req, _res, next) => next(bank.enabled ? undefined : unavailable(BANK_OFF_MESSAGE)));
  router.use(requireUser(services.auth));

  router.get("/terms", (_req, res) => {
    res.json({ success: true, mock: true, ...bank.terms() });
  });

  router.get("/accounts", async (_req, res) => {
    res.json({ success: true, mock: true, accounts: await bank.listAccounts(currentUser(res).uid) });
  });

  router.post("/accounts", async (req, res) => {
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

  router.post("/wallets", async (req, res) => {
    const body = readBody(walletBody, req.body, ["name", "address"], "please provide the wallet name and address", (field) =>
      field === "address" ? "Invalid Address" : "Invalid Wallet",
    );
    res.status(201).json({ success: true, mock: true, wallet: await bank.addWallet(currentUser(res).uid, body) });
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

  router.post("/deposits", async (req, res) => {
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
