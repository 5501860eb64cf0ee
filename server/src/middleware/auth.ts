import type { NextFunction, Request, RequestHandler, Response } from "express";
import { forbidden, unauthorized, unavailable } from "../lib/errors";
import type { AuthProvider, SessionUser } from "../services/auth/firebaseAuth";

/** The signed-in user of a request that passed requireUser. */
export function currentUser(res: Response): SessionUser {
  return res.locals.user as SessionUser;
}

/** Verifies `Authorization: Bearer <Firebase ID token>`; trusts nothing else the browser says. */
export function requireUser(auth: AuthProvider): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization ?? "";
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) return next(unauthorized("Sign in first: this needs an 'Authorization: Bearer <Firebase ID token>' header."));
    try {
      res.locals.user = await auth.verifyIdToken(match[1]);
      next();
    } catch (error) {
      const code = String((error as { code?: unknown }).code ?? "");
      if (code.startsWith("auth/")) {
        // Which refusal it was (malformed, unknown user...) stays in the log; the answer tells only an expired or ended session apart.
        req.log?.info({ code }, "ID token refused");
        return next(unauthorized(TOKEN_REFUSALS[code] ?? "Your session token is not valid: sign in again."));
      }
      next(unavailable("Cannot check your sign-in right now: the identity service is not answering."));
    }
  };
}

/** The refusals a user can act on differently; every other one is 'not valid'. */
const TOKEN_REFUSALS: Record<string, string> = {
  "auth/id-token-expired": "Your session has expired: sign in again.",
  "auth/id-token-revoked": "Your session was ended by the server (signed out everywhere): sign in again.",
};

/**
 * After requireUser: only a wallet the running server's ADMIN_WALLETS lists, checked on every
 * request (the session's `admin`, from isListedAdmin), never the claim the token got at sign-in.
 */
export const requireAdmin: RequestHandler = (_req, res, next) => {
  if (!currentUser(res)?.admin) return next(forbidden("Admin only: sign in with a wallet listed in ADMIN_WALLETS."));
  next();
};
