import { z } from "zod";
import { endpoints } from "./endpoint";
import { Address, AddressInput, IsoDate, ok } from "./schemas";

/** Wallet sign-in (SIWE) and the signed-in user: POST /api/auth/nonce, /wallet-auth; GET /api/auth/me. */

export const SessionUser = z
  .strictObject({
    uid: z.string(),
    email: z.string().nullable(),
    wallet: Address.nullable().meta({ description: "Set for wallet sign-ins: the checksummed address." }),
    admin: z.boolean().meta({
      description: "Whether the server's ADMIN_WALLETS lists this session's wallet now (asked on every request, not the token's claim).",
    }),
  })
  .meta({ id: "SessionUser" });
export type SessionUser = z.infer<typeof SessionUser>;

export const signInApi = endpoints({
  "POST /api/auth/nonce": {
    tag: "Sign-in",
    summary: "Step 1 of wallet sign-in: a nonce",
    description: "A single-use nonce for a Sign-In with Ethereum (EIP-4361) message, good until expiresAt. Rate limited per address.",
    access: "public",
    answer: ok({ nonce: z.string().meta({ example: "kXh3b9Qm2sTq8wZr" }), expiresAt: IsoDate }),
    errors: [429, 503],
  },
  "POST /api/auth/wallet-auth": {
    tag: "Sign-in",
    summary: "Step 2 of wallet sign-in: the signed message",
    description:
      "Send the SIWE message (with this server's domain, chain id and the nonce) and its personal_sign signature. The answer's customToken signs in to Firebase (signInWithCustomToken); the Firebase ID token that gives is the Bearer token of every other call.",
    access: "public",
    body: z.object({
      // The one address rule: the service's getAddress would throw (a 500) on a wrong checksum.
      address: AddressInput,
      message: z.string().min(1, "is empty").max(4000, "is longer than a sign-in message can be"),
      signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, "must be a 65-byte hex signature"),
    }),
    answer: ok({ customToken: z.string(), uid: z.string(), admin: z.boolean() }),
    // 401: the message was used, expired, is for another domain or chain, or another wallet signed it.
    errors: [401, 429, 503],
  },
  "GET /api/auth/me": {
    tag: "Sign-in",
    summary: "The signed-in user",
    description: "Who the bearer token says you are, as the server verified it.",
    access: "user",
    answer: ok({ user: SessionUser }),
    errors: [503],
  },
});
