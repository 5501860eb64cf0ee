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
        // Which refusal it was (expired, malformed, unknown user...) stays in the log, not the answer.
        req.log?.info({ code }, "ID token refused");
        const expired = code === "auth/id-token-expired";
        return next(unauthorized(expired ? "Your session has expired: sign in again." : "Your session token is not valid: sign in again."));
      }
      next(unavailable("Cannot check your sign-in right now: the identity service is not answering."));
    }
  };
}

/** After requireUser: only users with the admin claim (ADMIN_WALLETS, via SIWE). */
export const requireAdmin: RequestHandler = (_req, res, next) => {
  if (!currentUser(res)?.admin) return next(forbidden("Admin only: sign in with a wallet listed in ADMIN_WALLETS."));
  next();
};
