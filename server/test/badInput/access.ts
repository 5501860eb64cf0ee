/**
 * Who may call: missing, malformed, expired and forged tokens against every protected endpoint;
 * Bob (and an admin wallet) reaching for Alice's rows.
 */
import { createHmac } from "node:crypto";
import { expect } from "chai";
import { unsignedToken, type LooseJson } from "../helpers";
import { FIREBASE_PROJECT } from "../stack";
import { NOT_THE_ORACLE } from "../../src/routes/admin";
import { B, casesOf, jobPath, protectedEndpoints, q, TX_HASH, type Req, type Who, type World } from "./table";
import type { BankAccount, BankWallet, Contact, Deposit, JobSummary } from "@common/apiTypes";

const seconds = () => Math.floor(Date.now() / 1000);
/** A Firebase ID token's claims for `uid` in the test project, valid for an hour; `over` changes some. */
export const claims = (uid: string, over: Record<string, unknown> = {}) => ({
  iss: `https://securetoken.google.com/${FIREBASE_PROJECT}`,
  aud: FIREBASE_PROJECT,
  sub: uid,
  user_id: uid,
  // Not before the user was created: the emulator treats older sign-ins as revoked.
  auth_time: seconds(),
  iat: seconds(),
  exp: seconds() + 3600,
  firebase: { identities: {}, sign_in_provider: "password" },
  ...over,
});
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
const signedWith = (alg: string, payload: object, sign: (data: string) => string) => {
  const data = `${b64({ alg, typ: "JWT", kid: "forged" })}.${b64(payload)}`;
  return `${data}.${sign(data)}`;
};

/** Each refused with 401; `uid` is Alice's, so a token wrongly accepted would act on her rows. */
const BAD_AUTH: [string, (w: World) => string, string?][] = [
  ["no Authorization header", () => ""],
  ["'Bearer' alone", () => "Bearer"],
  ["Basic credentials", () => "Basic YWxpY2U6cGFzc3dvcmQ="],
  ["a token of random text", () => "Bearer not-a-token"],
  ["three dots of garbage", () => "Bearer a.b.c"],
  ["two tokens", (w) => `Bearer ${w.alice.idToken} ${w.alice.idToken}`],
  ["a 10 KB token", () => `Bearer ${"a".repeat(10_000)}`],
  ["claims for another project (aud)", (w) => `Bearer ${unsignedToken(claims(w.alice.uid, { aud: "other-project" }))}`],
  [
    "claims from another issuer",
    (w) => `Bearer ${unsignedToken(claims(w.alice.uid, { iss: "https://securetoken.google.com/other-project" }))}`,
  ],
  [
    "claims from a non-Google issuer",
    (w) => `Bearer ${unsignedToken(claims(w.alice.uid, { iss: `https://evil.example/${FIREBASE_PROJECT}` }))}`,
  ],
  [
    "an expired token",
    (w) => `Bearer ${unsignedToken(claims(w.alice.uid, { iat: seconds() - 7200, exp: seconds() - 3600 }))}`,
    "Your session has expired: sign in again.",
  ],
  ["no subject", (w) => `Bearer ${unsignedToken(claims(w.alice.uid, { sub: undefined }))}`],
  ["an empty subject", (w) => `Bearer ${unsignedToken(claims(w.alice.uid, { sub: "" }))}`],
  ["a 129-character subject", () => `Bearer ${unsignedToken(claims("u".repeat(129)))}`],
  ["a subject with a NUL", (w) => `Bearer ${unsignedToken(claims(`${w.alice.uid}\u0000`))}`],
  ["a subject with a line break", (w) => `Bearer ${unsignedToken(claims(`${w.alice.uid}\nadmin`))}`],
  ["claims that are a list", () => `Bearer ${b64({ alg: "none" })}.${b64([1, 2])}.`],
  ["RS256 with a made-up signature", (w) => `Bearer ${signedWith("RS256", claims(w.alice.uid), () => "c2lnbmF0dXJl")}`],
  [
    "HS256 signed with a guessed secret",
    (w) => `Bearer ${signedWith("HS256", claims(w.alice.uid), (d) => createHmac("sha256", "secret").update(d).digest("base64url"))}`,
  ],
  ["alg none with a signature part", (w) => `Bearer ${signedWith("none", claims(w.alice.uid), () => "c2ln")}`],
];

/** Auth: missing, malformed, expired and forged tokens, against every protected endpoint. */
export const authCases = casesOf((add) => {
  for (const e of protectedEndpoints) {
    for (const [what, header, error] of BAD_AUTH) {
      add({
        category: "auth",
        name: `${e.method} ${e.route}: ${what}`,
        request: (w) => ({ method: e.method, path: e.path(w), who: "nobody", authorization: header(w), json: e.body?.(w) }),
        status: 401,
        error: error ?? /^(Sign in first|Your session token is not valid)/,
      });
    }
  }
});

const otherUser: [Who, Req["method"], string, (w: World) => string, ((w: World) => unknown)?, (string | RegExp)?][] = [
  ["bob", "GET", "/api/batch/:id", jobPath, undefined, /^No batch job .* among yours\.$/],
  ["bob", "GET", "/api/batch/:id/export", (w) => `${jobPath(w)}/export`, undefined, /^No batch job .* among yours\.$/],
  [
    "bob",
    "POST",
    "/api/batch/:id/transactions",
    (w) => `${jobPath(w)}/transactions`,
    () => ({ chunkIndex: 0, txHash: TX_HASH }),
    /^No batch job /,
  ],
  [
    "bob",
    "PATCH",
    "/api/contacts/:id",
    (w) => `/api/contacts/${w.contactId}`,
    () => ({ name: "Mine now" }),
    "Contact not found - It may have been deleted",
  ],
  [
    "bob",
    "PATCH",
    "/api/contacts/:id (address)",
    (w) => `/api/contacts/${w.contactId}`,
    () => ({ address: B }),
    "Contact not found - It may have been deleted",
  ],
  ["bob", "DELETE", "/api/contacts/:id", (w) => `/api/contacts/${w.contactId}`, undefined, "Contact not found - It may have been deleted"],
  [
    "bob",
    "DELETE",
    "/api/bank/accounts/:id",
    (w) => `/api/bank/accounts/${w.accountId}`,
    undefined,
    /^Bank account \d+ was not found among your bank accounts\.$/,
  ],
  [
    "bob",
    "POST",
    "/api/bank/wallets/:id/primary",
    (w) => `/api/bank/wallets/${w.spareWalletId}/primary`,
    undefined,
    /^Wallet \d+ was not found among your wallets\.$/,
  ],
  [
    "bob",
    "DELETE",
    "/api/bank/wallets/:id",
    (w) => `/api/bank/wallets/${w.spareWalletId}`,
    undefined,
    /^Wallet \d+ was not found among your wallets\.$/,
  ],
  [
    "bob",
    "GET",
    "/api/bank/deposits/:id",
    (w) => `/api/bank/deposits/${w.depositId}`,
    undefined,
    /^Deposit \d+ was not found among your deposits\.$/,
  ],
  [
    "bob",
    "POST",
    "/api/bank/deposits (Alice's account)",
    () => "/api/bank/deposits",
    (w) => ({ bankAccountId: w.accountId, amount: "10" }),
    /^Invalid Deposit: bank account \d+ was not found/,
  ],
  [
    "bob",
    "POST",
    "/api/bank/deposits (Alice's account and wallet)",
    () => "/api/bank/deposits",
    (w) => ({ bankAccountId: String(w.accountId), amount: "10", walletId: w.walletId }),
    /^Invalid Deposit: bank account \d+ was not found/,
  ],
  [
    "admin",
    "PATCH",
    "/api/contacts/:id",
    (w) => `/api/contacts/${w.contactId}`,
    () => ({ notes: "seen by admin" }),
    "Contact not found - It may have been deleted",
  ],
  ["admin", "GET", "/api/batch/:id", jobPath, undefined, /^No batch job /],
  ["admin", "DELETE", "/api/bank/accounts/:id", (w) => `/api/bank/accounts/${w.accountId}`, undefined, /^Bank account /],
];

/** Other users: Bob (and an admin wallet) reaching for Alice's rows answers as for a missing one. */
export const otherUserCases = casesOf((add) => {
  for (const [who, method, label, pathOf, body, error] of otherUser) {
    add({
      category: "other user",
      name: `${who} ${method} ${label} of Alice's`,
      request: (w) => ({ method, path: pathOf(w), who, json: body?.(w) }),
      status: 404,
      error,
    });
  }
  add({
    ...q("other user", "GET", "/api/audit", "alice", 403, "Admin only: sign in with a wallet listed in ADMIN_WALLETS."),
    name: "alice (not an admin) GET /api/audit",
  });
  // Issue 29, item 14: an email account cannot prove it holds ORACLE_ROLE, so it records no multiplier change.
  add({
    category: "other user",
    name: "alice (an email account) POST /api/reward-multiplier with a valid body",
    request: () => ({ method: "POST", path: "/api/reward-multiplier", who: "alice", json: { value: "1.5", operation: "set" } }),
    status: 403,
    error: NOT_THE_ORACLE,
  });
  // Listings answer 200 with the caller's own rows only: nothing of Alice's.
  const listings: [string, string, (body: LooseJson, w: World) => void][] = [
    ["/api/contacts", "contacts", (body, w) => expect(body.contacts.map((c: Contact) => c.id)).to.not.include(w.contactId)],
    ["/api/contacts?search=landlord", "contacts found by Alice's note", (body) => expect(body).to.deep.include({ contacts: [], total: 0 })],
    ["/api/batch", "batch jobs", (body, w) => expect(body.jobs.map((j: JobSummary) => j.jobId)).to.not.include(w.jobId)],
    ["/api/batch/status", "the latest batch job", (body) => expect(body.data).to.equal(null)],
    ["/api/bank/accounts", "bank accounts", (body, w) => expect(body.accounts.map((a: BankAccount) => a.id)).to.not.include(w.accountId)],
    [
      "/api/bank/wallets",
      "wallets",
      (body, w) => expect(body.wallets.map((a: BankWallet) => a.id)).to.not.include.members([w.walletId, w.spareWalletId]),
    ],
    ["/api/bank/deposits", "deposits", (body, w) => expect(body.deposits.map((d: Deposit) => d.id)).to.not.include(w.depositId)],
  ];
  for (const [route, what, check] of listings) {
    add({
      category: "other user",
      name: `bob GET ${route}: no ${what} of Alice's`,
      request: () => ({ method: "GET", path: route, who: "bob" }),
      accepted: check,
    });
  }
  add({
    category: "other user",
    name: "bob GET /api/contacts/export: no contact of Alice's",
    request: () => ({ method: "GET", path: "/api/contacts/export", who: "bob" }),
    accepted: (body) => expect(body).to.equal('"Name","Address","Notes"\r\n'),
  });
});
