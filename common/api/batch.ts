import { z } from "zod";
import { executeBody, jobPath } from "./batchInput";
import { endpoints } from "./endpoint";
import { Address, BaseUnits, Bytes32, csvText, IsoDate, ok, TokenAmount, TxHash, wholeNumber } from "./schemas";

/**
 * /api/batch: batch payments (PRODUCT.md section 7, with each row's own amount). Parse a CSV, start a
 * job, report each chunk's transaction, follow the job. Every route belongs to a signed-in user,
 * who sees only their own jobs.
 */

// ---------------------------------------------------------------- records

export const RecipientField = z
  .enum(["name", "address", "amount", "row"])
  .meta({ description: "The cell a problem concerns; 'row' when the CSV row itself is broken." });
export type RecipientField = z.infer<typeof RecipientField>;

export const JobStatus = z.enum(["processing", "completed", "failed"]).meta({
  id: "JobStatus",
  description:
    "completed: every chunk is paid. failed: a chunk failed, was closed, or was not sent within the submit window. Else processing.",
});
export type JobStatus = z.infer<typeof JobStatus>;

export const ChunkStatus = z.enum(["pending", "submitted", "confirmed", "failed", "closed"]).meta({
  id: "ChunkStatus",
  description:
    "pending: no transaction reported yet. submitted: a transaction was reported and is being followed. confirmed: its payment is on the chain. failed: its transaction reverted, " +
    "was never seen, or did not pay the chunk; it may be sent again. closed: the job failed and its submit window is over, so the chunk takes no more reports and its transaction is " +
    "no longer followed; a payment of it by the job's wallet still confirms it.",
});
export type ChunkStatus = z.infer<typeof ChunkStatus>;

export const RecipientStatus = z
  .enum(["pending", "paid", "unpaid"])
  .meta({ id: "RecipientStatus", description: "paid: their chunk is confirmed. unpaid: their chunk was closed unpaid. Else pending." });
export type RecipientStatus = z.infer<typeof RecipientStatus>;

export const RecipientProblem = z
  .strictObject({
    field: RecipientField,
    reason: z
      .string()
      .meta({ description: "'Invalid Ethereum address', 'Invalid amount', 'Invalid name' or 'Invalid row'.", example: "Invalid amount" }),
    detail: z.string().meta({
      description: "What exactly is wrong, for a person fixing the file.",
      example: "Please enter a valid amount greater than 0.",
    }),
  })
  .meta({ id: "RecipientProblem" });
export type RecipientProblem = z.infer<typeof RecipientProblem>;

/** The bytes32 a chunk's payment carries: unique to the job and the chunk. */
const Reference = Bytes32.meta({
  description:
    "The paymentRef the chunk's transaction carries, keccak256('usdx-batch:<jobId>:<index>'); BatchPaid repeats it, which is how the server recognises the payment.",
  example: "0x8d3e7a1f0c2b4d6e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e",
});

const Line = z.number().int().meta({ description: "The row's line in the file: the header is line 1.", example: 2 });
const Name = z.string().meta({ description: "The recipient's name, trimmed; may be empty.", example: "Alice" });

/** POST /api/batch/parse-csv's `data`. */
export const ParsedRecipients = z
  .strictObject({
    validRecipients: z.array(z.strictObject({ line: Line, name: Name, address: Address, amount: TokenAmount })).meta({
      description: "The rows that can be paid, in file order: the address checksummed, the amount as an exact decimal.",
    }),
    invalidEntries: z
      .array(
        z.strictObject({
          line: Line,
          reason: z.string().meta({ description: "The first problem's reason.", example: "Invalid Ethereum address" }),
          name: z.string(),
          address: z.string().meta({ description: "The cell as it was written." }),
          amount: z.string().meta({ description: "The cell as it was written." }),
          errors: z.array(RecipientProblem).meta({ description: "Every problem of the row, by cell." }),
        }),
      )
      .meta({ description: "The rows that cannot be paid, with every problem of each." }),
    duplicates: z
      .array(z.strictObject({ address: Address, lines: z.array(z.number().int()).meta({ example: [2, 7] }) }))
      .meta({ description: "Addresses on more than one valid row: flagged, not refused (each row is paid)." }),
    totalRows: z.number().int().meta({ description: "Data rows read (blank lines are skipped).", example: 3 }),
    totalAmount: TokenAmount.meta({ description: "The sum of the valid rows, as an exact decimal." }),
    totalAmountRaw: BaseUnits.meta({ description: "The same sum in base units." }),
  })
  .meta({ id: "ParsedRecipients" });
export type ParsedRecipients = z.infer<typeof ParsedRecipients>;

/** One transaction of a job, to be sent by the paying wallet. */
export const ChunkPlan = z
  .strictObject({
    index: z.number().int().meta({ description: "The chunk's number, from 0: the chunkIndex of its report.", example: 0 }),
    recipients: z.array(Address).meta({ description: "The recipients' addresses, in the job's order." }),
    amounts: z.array(BaseUnits).meta({ description: "Each recipient's amount in base units, in the same order." }),
    total: BaseUnits.meta({ description: "The chunk's sum, in base units." }),
    reference: Reference,
  })
  .meta({ id: "ChunkPlan", description: "One transaction of a job: BatchPayments.pay(recipients, amounts, reference)." });
export type ChunkPlan = z.infer<typeof ChunkPlan>;

const JobId = z.string().meta({ description: "The batch job's id, a UUID.", example: "5b0e8c5e-4c1a-4d5e-9f0a-2b7c3d4e5f60" });

export const JobSummary = z
  .strictObject({
    jobId: JobId,
    status: JobStatus,
    payer: Address.nullable().meta({
      description: "The paying wallet: the one given to execute, or the one that paid the first chunk; null until known.",
    }),
    payerIsSafe: z.boolean().meta({
      description:
        "The payer is a Safe: each chunk is paid by a Safe proposal (a MultiSend of approve and pay) that its owners approve and execute.",
    }),
    totalAmount: TokenAmount.meta({ description: "The job's total, as an exact decimal." }),
    totalAmountRaw: BaseUnits.meta({ description: "The same total in base units." }),
    amount: TokenAmount.nullable().meta({ description: "Every row's amount when they are all the same, else null." }),
    recipients: z.number().int().meta({ example: 3 }),
    recipientsPaid: z.number().int().meta({ example: 0 }),
    chunks: z
      .strictObject({ total: z.number().int(), confirmed: z.number().int(), submitted: z.number().int(), failed: z.number().int() })
      .meta({
        description: "How many chunks there are, and how many are in each state; failed counts the closed ones too.",
        example: { total: 1, confirmed: 0, submitted: 1, failed: 0 },
      }),
    txHash: TxHash.nullable().meta({ description: "The newest chunk transaction reported; null before the first." }),
    txHashes: z.array(TxHash).meta({ description: "Every chunk's transaction, in chunk order." }),
    error: z.string().nullable().meta({ description: "Why the job failed; null unless it did.", example: null }),
    createdAt: IsoDate,
    updatedAt: IsoDate,
    completedAt: IsoDate.nullable(),
  })
  .meta({ id: "JobSummary" });
export type JobSummary = z.infer<typeof JobSummary>;

export const ChunkDetail = z
  .strictObject({
    index: z.number().int().meta({ example: 0 }),
    status: ChunkStatus,
    reference: Reference,
    recipients: z.number().int().meta({ description: "How many recipients it pays.", example: 3 }),
    totalAmount: TokenAmount.meta({ description: "The chunk's sum, as an exact decimal." }),
    txHash: TxHash.nullable().meta({ description: "The transaction reported for it (or that paid it); null before any." }),
    blockNumber: z.number().int().nullable().meta({ description: "The block of its payment, once confirmed." }),
    error: z.string().nullable().meta({ description: "Why it failed or was closed, in words." }),
    proposal: z
      .strictObject({
        safeTxHash: Bytes32,
        nonce: z.number().int().meta({ description: "The Safe nonce it was proposed at." }),
        state: z.enum(["pending", "executed", "failed", "replaced"]).meta({
          description:
            "pending: awaiting approvals or execution. replaced or failed: it will not pay, and the chunk may be proposed again.",
        }),
      })
      .nullable()
      .meta({ description: "The newest Safe proposal that pays the chunk (a job paid from a Safe); null when there is none." }),
  })
  .meta({ id: "ChunkDetail" });
export type ChunkDetail = z.infer<typeof ChunkDetail>;

export const RecipientDetail = z
  .strictObject({
    position: z.number().int().meta({ description: "The recipient's place in the job, from 0.", example: 0 }),
    chunkIndex: z.number().int().meta({ example: 0 }),
    name: Name,
    address: Address,
    amount: TokenAmount.meta({ description: "The amount as an exact decimal." }),
    status: RecipientStatus,
    txHash: TxHash.nullable().meta({ description: "The transaction that paid them; null until paid." }),
  })
  .meta({ id: "RecipientDetail" });
export type RecipientDetail = z.infer<typeof RecipientDetail>;

// ---------------------------------------------------------------- endpoints

// In the docs' order: the flow's steps, then the lists.
export const batchApi = endpoints({
  "POST /api/batch/parse-csv": {
    tag: "Batch payments",
    summary: "Step 1: check a CSV of payments",
    description:
      "The CSV needs a header row naming Address and Amount (Name optional), in any case and order; other columns are ignored. Each row is checked as execute will check it, " +
      "and every problem is reported by cell; addresses on more than one row are flagged, not refused. Nothing is stored: send the valid rows to execute.\n\n" +
      "An empty file, a header without an Address or Amount column, or more rows than the server's BATCH_MAX_ROWS (GET /api/config's `batch.maxRows`, 10,000 by default) is a 400. " +
      "The limit of CSV uploads an address may send a minute (RATE_LIMIT_CSV_PER_MINUTE) is counted before the sign-in is checked, so a 429 may come before a 401.",
    access: "user",
    body: z.object({
      csvData: csvText(z.string({ message: "must be the CSV file's text" })).meta({
        description: "The file's text (at most 1 MB, the body's limit).",
        example:
          "Name,Address,Amount\nAlice,0x70997970C51812dc3A010C7d01b50e0d17dc79C8,12.5\nBob,0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC,7\n",
      }),
    }),
    answer: ok({
      error: z.null().meta({ description: "Always null: a file that cannot be read at all is a 400." }),
      data: ParsedRecipients,
    }),
    errors: [429, 503],
  },
  "POST /api/batch/execute": {
    tag: "Batch payments",
    summary: "Step 2: start a batch job",
    description:
      "Checks every recipient again (the same rules as parse-csv: all or nothing), your limits and, when `payer` is given, that wallet's balance, blocklist entry and the token's pause. " +
      "Then stores the job and answers its chunks: the recipients in CSV order, cut into chunks of BATCH_CHUNK_SIZE (GET /api/config's `batch.chunkSize`: as many as fit one transaction's gas by default).\n\n" +
      "The server holds no key that pays: the paying wallet approves `batchContract` to spend the total of `token`, then calls `batchContract` once per chunk: `pay(recipients, amounts, reference)` with the chunk's values. " +
      "Or sign once: send the first chunk with `payWithPermit`, adding an EIP-2612 permit of `token` for the job's total, and the others with `pay`. " +
      "Report each transaction's hash to POST /api/batch/{id}/transactions, then follow the job with GET /api/batch/{id}. A chunk is paid when its BatchPaid event from the job's payer, with exactly the planned transfers, is indexed, even if it was never reported.\n\n" +
      "Limits: at most BATCH_MAX_ROWS recipients a job (a 400); USER_MAX_OPEN_BATCHES jobs in progress at once and USER_MAX_BATCH_ROWS_PER_DAY recipients in any 24 hours (a 429 that says when). " +
      "A job whose chunks are not all sent within BATCH_SUBMIT_WINDOW_MS (1 hour by default) of starting fails.",
    access: "user",
    body: executeBody,
    status: 201,
    answer: ok({
      status: z.literal("processing"),
      message: z.string().meta({ example: "Batch started: 3 recipients in 1 transaction." }),
      jobId: JobId,
      batchContract: Address.meta({
        description: "The BatchPayments contract each chunk's transaction calls.",
        example: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
      }),
      token: Address.meta({
        description: "The USDX token (its proxy): the allowance, or the permit, is for batchContract to spend it.",
        example: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
      }),
      totalAmount: TokenAmount.meta({ description: "The job's total, as an exact decimal." }),
      totalAmountRaw: BaseUnits.meta({ description: "The same total in base units: the allowance every chunk together needs." }),
      chunks: z.array(ChunkPlan).meta({ description: "The transactions to send, one per chunk." }),
      payerIsSafe: z
        .boolean()
        .meta({ description: "The payer is a Safe: propose each chunk to it (POST /api/safes/{safe}/proposals) instead of sending it." }),
      multiSendCallOnly: Address.nullable().meta({
        description:
          "For a Safe payer, the MultiSendCallOnly each chunk's proposal delegatecalls (operation 1) with exactly two calls: token.approve(batchContract, chunk total), then batchContract.pay(recipients, amounts, reference). Null otherwise.",
      }),
    }),
    errors: [429, 503],
  },
  "POST /api/batch/:id/transactions": {
    tag: "Batch payments",
    summary: "Step 3: report a chunk's transaction",
    description:
      "Tells the server which transaction pays a chunk, as soon as the wallet has sent it, so the server follows it: a transaction that reverts, is never seen, or does not pay the chunk fails it, with the reason. " +
      "A submitted chunk may be reported again with a new hash (a wallet's speed-up), and a failed one may be sent again and its new hash reported. Reporting a confirmed chunk's own hash again answers the chunk unchanged.\n\n" +
      "A chunk the job does not have is a 400; a chunk already paid by another transaction, or closed (the job failed and its submit window is over), is a 409. A user may send USER_BATCH_REPORTS_PER_MINUTE reports a minute; " +
      "a malformed one is refused before it is counted.",
    access: "user",
    params: jobPath,
    body: z.object({
      chunkIndex: z
        .number({ message: "must be a number" })
        .int("must be a whole number")
        .min(0, "must be 0 or more")
        .max(100_000)
        .meta({ description: "The chunk's index, from 0.", example: 0 }),
      txHash: z
        .string({ message: "must be a string" })
        .regex(/^0x[0-9a-fA-F]{64}$/, "must be a transaction hash: 0x followed by 64 hex characters")
        .meta({ example: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060" }),
    }),
    answer: ok({ chunk: ChunkDetail }),
    errors: [404, 409, 429, 503],
  },
  "GET /api/batch/:id": {
    tag: "Batch payments",
    summary: "Step 4: follow a job",
    description:
      "The job, every chunk, and a page of its recipients in job order. Poll it while the job is processing: the server follows the chain and moves each chunk's status " +
      "(a few seconds apart is enough; an unchanged job is answered from memory). Another user's job is a 404, like a missing one.",
    access: "user",
    params: jobPath,
    query: z.object({
      offset: wholeNumber(0, 999_999).default(0).meta({ description: "Recipients to skip, in job order; 0 when left out." }),
      limit: wholeNumber(1, 10_000).default(1000).meta({ description: "Recipients per page, 1 to 10,000; 1,000 when left out." }),
    }),
    answer: ok({ job: JobSummary, chunks: z.array(ChunkDetail), recipients: z.array(RecipientDetail) }),
    errors: [404, 503],
  },
  "GET /api/batch": {
    tag: "Batch payments",
    summary: "Your batch jobs, newest first",
    description: "A page at a time: pass the answer's `nextBefore` as `before` for the next, older page.",
    access: "user",
    query: z.object({
      limit: wholeNumber(1, 100).default(20).meta({ description: "Jobs per page, 1 to 100; 20 when left out." }),
      before: z.iso
        .datetime({ message: "must be the createdAt of the previous page's last job" })
        .optional()
        .meta({ description: "Only jobs created before this moment: the previous page's nextBefore." }),
    }),
    answer: ok({
      jobs: z.array(JobSummary),
      nextBefore: IsoDate.nullable().meta({ description: "Pass back as `before` for the next, older page; null on the last page." }),
    }),
    errors: [503],
  },
  "GET /api/batch/status": {
    tag: "Batch payments",
    summary: "Your newest batch job",
    description: "The summary of the job you started last (GET /api/batch/{id} has its chunks and recipients).",
    access: "user",
    answer: ok({ data: JobSummary.nullable().meta({ description: "null when you have started none." }) }),
    errors: [503],
  },
});
