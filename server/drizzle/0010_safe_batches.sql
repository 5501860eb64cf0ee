ALTER TABLE "batch_jobs" ADD COLUMN "payer_is_safe" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "safe_proposals" ADD COLUMN "batch_job_id" text;--> statement-breakpoint
ALTER TABLE "safe_proposals" ADD COLUMN "batch_chunk" integer;--> statement-breakpoint
CREATE INDEX "safe_proposals_batch" ON "safe_proposals" USING btree ("batch_job_id","batch_chunk");