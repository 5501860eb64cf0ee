import type { Response } from "express";
import { Router } from "express";
import { isValidAddress } from "@common/addresses";
import { badRequest } from "../errors";
import { requireUser } from "../middleware/auth";
import { quoted } from "../middleware/errorHandler";
import { perUserRateLimit } from "../middleware/rateLimits";
import type { Services } from "../services";
import { declaredRoutes } from "./declared";

/**
 * Writes `chunks` to the answer one at a time, waiting whenever the client reads slower than the
 * server writes, and giving other requests their turn between chunks; stops if the client goes.
 */
async function stream(res: Response, chunks: Iterable<string>): Promise<void> {
  for (const chunk of chunks) {
    if (res.destroyed) return;
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.on("drain", done);
        res.on("close", done);
      });
    } else {
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (!res.destroyed) res.end();
}

/** /api/holders and /api/rewards (common/api/holders.ts): signed-in users only. Mounted at /api beside other groups, so sign-in is per route. */
export function holderRoutes(services: Services): Router {
  const router = Router();
  const on = declaredRoutes(router, "/api");
  const signedIn = requireUser(services.auth);
  // An export of every holder is the dearest read there is: a user's exports a minute are counted like CSV uploads.
  const exportLimit = perUserRateLimit(services.rateLimits, "holders-export", services.config.rateLimits.csvPerMinute, "holder exports");

  on("GET /api/holders", [signedIn], ({ query }) => services.holders.page(query));

  on("GET /api/holders/export", [signedIn, exportLimit], async ({ query }, res) => {
    const { header, chunks } = await services.holders.csv(query);
    res.status(200).set({
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="usdx_holders.csv"',
      "Cache-Control": "no-store",
    });
    res.write(header);
    await stream(res, chunks);
  });

  on(
    "GET /api/rewards/:address",
    [
      signedIn,
      // As the history's: the address is checked in words of its own, and a long one is not echoed whole.
      (req, _res, next) => {
        const address = String(req.params.address);
        next(isValidAddress(address) ? undefined : badRequest(`'${quoted(address, 100)}' is not a valid address: it must be 0x followed by 40 hex characters.`));
      },
    ],
    ({ params }) => services.rewards.rewards(params.address),
  );

  return router;
}
