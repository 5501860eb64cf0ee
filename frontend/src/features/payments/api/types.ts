/**
 * What the batch API answers (server/src/routes/batch.ts): the envelopes. The records inside them
 * are declared once, in common/apiTypes.ts, for the server and the dashboard.
 */
import type { ChunkDetail, ChunkPlan, JobSummary, ParsedRecipients, RecipientDetail } from "../../../../../common/apiTypes";

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
} from "../../../../../common/apiTypes";

export interface ParseCsvAnswer {
  success: boolean;
  error: string | null;
  data: ParsedRecipients | null;
}

/** POST /api/batch/execute. */
export interface ExecuteAnswer {
  success: boolean;
  status: string;
  message: string;
  jobId: string;
  batchContract: string;
  token: string;
  totalAmount: string;
  totalAmountRaw: string;
  chunks: ChunkPlan[];
}



/** GET /api/batch/:id?offset=&limit=: the job, its chunks and a page of its recipients. */
export interface JobDetail {
  success: boolean;
  job: JobSummary;
  chunks: ChunkDetail[];
  recipients: RecipientDetail[];
}

/** GET /api/batch?limit=&before=: the user's jobs, newest first. */
export interface JobList {
  success: boolean;
  jobs: JobSummary[];
  /** Pass back as `before` for the next, older page; null on the last page. */
  nextBefore: string | null;
}

/** POST /api/contacts/import. */
export interface ContactImportAnswer {
  success: boolean;
  imported: number;
  skipped: { line: number; reason: string }[];
}
