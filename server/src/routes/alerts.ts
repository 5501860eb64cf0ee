import { Router } from "express";
import { currentUser, requireAdmin, requireUser } from "../middleware/auth";
import { perUserRateLimit } from "../middleware/rateLimits";
import type { Services } from "../services";
import { declaredRoutes } from "./declared";

/** /api/alerts (common/api/alerts.ts): the admins' alert rules, 'Send test' and the delivery log. */
export function alertRoutes(services: Services): Router {
  const router = Router();
  router.use(requireUser(services.auth), requireAdmin);
  const on = declaredRoutes(router, "/api/alerts");
  const { alerts } = services;
  // Each test is a request from the server to a URL of the admin's choosing: a few a minute at most.
  const testRate = perUserRateLimit(services.rateLimits, "alert-tests", "test deliveries");

  on("GET /api/alerts/rules", [], async () => ({ success: true, rules: await alerts.rules.list() }));

  on("POST /api/alerts/rules", [], async ({ body }, res) => ({
    success: true,
    ...(await alerts.rules.create(currentUser(res).uid, body)),
  }));

  on("PATCH /api/alerts/rules/:id", [], async ({ params, body }) => ({
    success: true,
    rule: await alerts.rules.setEnabled(params.id, body.enabled),
  }));

  on("DELETE /api/alerts/rules/:id", [], async ({ params }) => {
    await alerts.rules.remove(params.id);
    return { success: true, id: params.id };
  });

  on("POST /api/alerts/rules/:id/rotate-secret", [], async ({ params }) => ({ success: true, ...(await alerts.rules.rotate(params.id)) }));

  on("POST /api/alerts/rules/:id/test", [testRate], async ({ params }) => ({ success: true, delivery: await alerts.test(params.id) }));

  on("GET /api/alerts/deliveries", [], async ({ query }) => ({ success: true, deliveries: await alerts.deliveries(query) }));

  return router;
}
