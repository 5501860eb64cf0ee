import { Router } from "express";
import { currentUser, requireUser } from "../middleware/auth";
import { csvRateLimit, perUserRateLimit } from "../middleware/rateLimits";
import type { Services } from "../services";
import { declaredRoutes, VALIDATE } from "./declared";
import { plural } from "@common/wording";

/**
 * /api/batch (common/api/batch.ts): batch payments (PRODUCT.md section 7, with each row's own amount):
 * parse a CSV, start a job, report each chunk's transaction, and follow the job. Every route
 * belongs to a signed-in user, who sees only their own jobs.
 */
export function batchRoutes(services: Services): Router {
  const router = Router();
  const on = declaredRoutes(router, "/api/batch");
  const signedIn = requireUser(services.auth);
  const { batch } = services;
  // Each report may cost the watcher a node lookup: a user may send this many a minute.
  const perMinute = services.rateLimits.perMinute("batch-reports");
  const reportLimit = perUserRateLimit(services.rateLimits, "batch-reports", `transaction reports (at most ${perMinute} a minute)`);

  // The limit comes first: a flood of uploads is refused before any token is verified.
  on("POST /api/batch/parse-csv", [csvRateLimit(services.rateLimits, "csv-batch"), signedIn], ({ body }) => ({
    success: true,
    error: null,
    data: batch.parseCsv(body.csvData),
  }));

  on("POST /api/batch/execute", [signedIn], async ({ body }, res) => {
    const { job, chunks, multiSendCallOnly } = await batch.create(currentUser(res), body);
    const what = job.payerIsSafe ? `${plural(chunks.length, "Safe proposal")} to approve` : plural(chunks.length, "transaction");
    return {
      success: true,
      status: "processing",
      message: `Batch started: ${plural(job.recipients, "recipient")} in ${what}.`,
      jobId: job.jobId,
      batchContract: services.chain.manifest.batchPayments,
      token: services.chain.manifest.proxy,
      totalAmount: job.totalAmount,
      totalAmountRaw: job.totalAmountRaw,
      chunks,
      payerIsSafe: job.payerIsSafe,
      multiSendCallOnly,
    };
  });

  // Before GET /:id, which would take "status" for a job id.
  on("GET /api/batch/status", [signedIn], async (_input, res) => ({ success: true, data: await batch.latest(currentUser(res)) }));

  on("GET /api/batch", [signedIn], async ({ query }, res) => {
    const jobs = await batch.list(currentUser(res), query.limit, query.before ? new Date(query.before) : undefined);
    return { success: true, jobs, nextBefore: jobs.length === query.limit ? jobs[jobs.length - 1].createdAt : null };
  });

  on("GET /api/batch/:id", [signedIn], async ({ params, query }, res) => ({
    success: true,
    ...(await batch.detail(currentUser(res), params.id, query.offset, query.limit)),
  }));

  // Checked before the limit: a malformed report costs nothing and is not counted.
  on("POST /api/batch/:id/transactions", [signedIn, VALIDATE, reportLimit], async ({ params, body }, res) => ({
    success: true,
    chunk: await batch.recordTransaction(currentUser(res), params.id, body.chunkIndex, body.txHash),
  }));

  return router;
}
