import { Router } from "express";
import { z } from "zod";
import { currentUser, requireUser } from "../middleware/auth";
import { csvRateLimit, perUserRateLimit } from "../middleware/rateLimits";
import { parse } from "../middleware/validate";
import type { Services } from "../services";
import type { ExecuteRequest } from "../services/batch";
import { parseRecipientsCsv } from "../services/batchRecipients";

// Strings in a recipient stay short: an address is 42 characters, an amount at most ~80 digits.
const text = (max: number) => z.string({ message: "must be a string" }).max(max, `is longer than ${max} characters`);

const parseCsvBody = z.object({ csvData: z.string({ message: "must be the CSV file's text" }) });

const executeBody = z.union(
  [
    z.object({
      recipients: z.array(z.object({ name: text(200).optional(), address: text(100), amount: text(100) }), { message: "must be a list" }),
      payer: text(100).optional(),
    }),
    // The spec's form: a list of addresses that each receive `amount`.
    z.object({ recipients: z.array(text(100), { message: "must be a list" }), amount: text(100), payer: text(100).optional() }),
  ],
  { message: "must be {recipients: [{name, address, amount}]} or {recipients: [address], amount}" },
);

const jobId = z.object({ id: z.uuid({ message: "must be a batch job id" }) });

const transactionBody = z.object({
  chunkIndex: z.number({ message: "must be a number" }).int("must be a whole number").min(0, "must be 0 or more").max(100_000),
  txHash: z.string({ message: "must be a string" }).regex(/^0x[0-9a-fA-F]{64}$/, "must be a transaction hash: 0x followed by 64 hex characters"),
});

const detailQuery = z.object({
  offset: z.string().regex(/^\d{1,6}$/, "must be a whole number").transform(Number).default(0),
  limit: z.string().regex(/^\d{1,5}$/, "must be a whole number").transform(Number).pipe(z.number().min(1).max(10_000)).default(1000),
});

const listQuery = z.object({
  limit: z.string().regex(/^\d{1,3}$/, "must be a whole number").transform(Number).pipe(z.number().min(1).max(100)).default(20),
  before: z.iso.datetime({ message: "must be the createdAt of the previous page's last job" }).optional(),
});

/**
 * Batch payments (spec section 7, with each row's own amount): parse a CSV, start a job, report
 * each chunk's transaction, and follow the job. Every route but parse-csv belongs to a signed-in
 * user, who sees only their own jobs.
 */
export function batchRoutes(services: Services): Router {
  const router = Router();
  const signedIn = requireUser(services.auth);
  const { batch } = services;
  const { limits } = services.config;
  // Each report may cost the watcher a node lookup: a user may send this many a minute.
  const reportLimit = perUserRateLimit(services.rateLimits, "batch-reports", limits.batchReportsPerMinute, `transaction reports (at most ${limits.batchReportsPerMinute} a minute)`);

  router.post("/parse-csv", csvRateLimit(services.rateLimits, "csv-batch", services.config.rateLimits.csvPerMinute), signedIn, (req, res) => {
    const { csvData } = parse(parseCsvBody, req.body, "body");
    const data = parseRecipientsCsv(csvData, services.config.batch.maxRows);
    res.json({ success: true, error: null, data });
  });

  router.post("/execute", signedIn, async (req, res) => {
    const body = parse(executeBody, req.body, "body") as ExecuteRequest;
    const { job, chunks } = await batch.create(currentUser(res), body, limits);
    res.status(201).json({
      success: true,
      status: "processing",
      message: `Batch started: ${job.recipients} recipients in ${chunks.length} ${chunks.length === 1 ? "transaction" : "transactions"}.`,
      jobId: job.jobId,
      batchContract: services.chain.manifest.batchPayments,
      token: services.chain.manifest.proxy,
      totalAmount: job.totalAmount,
      totalAmountRaw: job.totalAmountRaw,
      chunks,
    });
  });

  router.get("/status", signedIn, async (_req, res) => {
    const job = await batch.latest(currentUser(res));
    res.json({ success: true, data: job });
  });

  router.get("/", signedIn, async (req, res) => {
    const query = parse(listQuery, req.query, "query");
    const jobs = await batch.list(currentUser(res), query.limit, query.before ? new Date(query.before) : undefined);
    res.json({ success: true, jobs, nextBefore: jobs.length === query.limit ? jobs[jobs.length - 1].createdAt : null });
  });

  router.get("/:id", signedIn, async (req, res) => {
    const { id } = parse(jobId, req.params, "path");
    const query = parse(detailQuery, req.query, "query");
    res.json({ success: true, ...(await batch.detail(currentUser(res), id, query.offset, query.limit)) });
  });

  router.post(
    "/:id/transactions",
    signedIn,
    // Checked before the limit: a malformed report costs nothing and is not counted.
    (req, res, next) => {
      res.locals.report = { id: parse(jobId, req.params, "path").id, ...parse(transactionBody, req.body, "body") };
      next();
    },
    reportLimit,
    async (_req, res) => {
      const { id, chunkIndex, txHash } = res.locals.report as { id: string; chunkIndex: number; txHash: string };
      const chunk = await batch.recordTransaction(currentUser(res), id, chunkIndex, txHash);
      res.json({ success: true, chunk });
    },
  );

  return router;
}
