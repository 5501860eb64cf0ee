/**
 * What the batch API answers (common/api/batch.ts, the API's declaration): the records, and the
 * envelopes as the declared answers' types. Types only: the dashboard's bundle carries no zod.
 */
import type { Api } from "@common/api";
import type { AnswerOf } from "@common/api/endpoint";

export type {
  ChunkDetail,
  ChunkPlan,
  ChunkStatus,
  JobStatus,
  JobSummary,
  ParsedRecipients,
  RecipientDetail,
  RecipientField,
  RecipientProblem,
  RecipientStatus,
} from "@common/apiTypes";

/** POST /api/batch/parse-csv: `{ success, error: null, data }`. */
export type ParseCsvAnswer = AnswerOf<Api["POST /api/batch/parse-csv"]>;

/** POST /api/batch/execute: the job and the chunks for the wallet to pay. */
export type ExecuteAnswer = AnswerOf<Api["POST /api/batch/execute"]>;

/** GET /api/batch/:id?offset=&limit=: the job, its chunks and a page of its recipients. */
export type JobDetail = AnswerOf<Api["GET /api/batch/:id"]>;
