CREATE TABLE "bank_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"last_four" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verify_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "bank_wallets" (
	"id" serial PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "batch_chunks" (
	"job_id" text NOT NULL,
	"chunk_index" integer NOT NULL,
	"reference" text NOT NULL,
	"recipient_count" integer NOT NULL,
	"total_amount" text NOT NULL,
	"status" text NOT NULL,
	"tx_hash" text,
	"block_number" bigint,
	"error" text,
	"submitted_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "batch_chunks_job_id_chunk_index_pk" PRIMARY KEY("job_id","chunk_index")
);
--> statement-breakpoint
CREATE TABLE "batch_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"payer" text,
	"status" text NOT NULL,
	"recipient_count" integer NOT NULL,
	"total_amount" text NOT NULL,
	"chunk_count" integer NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "batch_recipients" (
	"job_id" text NOT NULL,
	"position" integer NOT NULL,
	"chunk_index" integer NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"amount" text NOT NULL,
	"status" text NOT NULL,
	"tx_hash" text,
	CONSTRAINT "batch_recipients_job_id_position_pk" PRIMARY KEY("job_id","position")
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposits" (
	"id" serial PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"bank_account_id" integer NOT NULL,
	"wallet_address" text NOT NULL,
	"amount" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processing_at" timestamp with time zone NOT NULL,
	"complete_at" timestamp with time zone NOT NULL,
	"signed_tx" text,
	"tx_hash" text,
	"error" text,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "batch_chunks" ADD CONSTRAINT "batch_chunks_job_id_batch_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."batch_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_recipients" ADD CONSTRAINT "batch_recipients_job_id_batch_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."batch_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_accounts_user" ON "bank_accounts" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "bank_accounts_status" ON "bank_accounts" USING btree ("status","verify_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_wallets_user_address" ON "bank_wallets" USING btree ("uid",lower("address"));--> statement-breakpoint
CREATE INDEX "bank_wallets_user" ON "bank_wallets" USING btree ("uid");--> statement-breakpoint
CREATE UNIQUE INDEX "batch_chunks_reference" ON "batch_chunks" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "batch_chunks_status" ON "batch_chunks" USING btree ("status");--> statement-breakpoint
CREATE INDEX "batch_jobs_user_created" ON "batch_jobs" USING btree ("uid","created_at");--> statement-breakpoint
CREATE INDEX "batch_jobs_status" ON "batch_jobs" USING btree ("status");--> statement-breakpoint
CREATE INDEX "batch_recipients_chunk" ON "batch_recipients" USING btree ("job_id","chunk_index");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_user_address" ON "contacts" USING btree ("uid",lower("address"));--> statement-breakpoint
CREATE INDEX "contacts_user_created" ON "contacts" USING btree ("uid","created_at");--> statement-breakpoint
CREATE INDEX "deposits_user_created" ON "deposits" USING btree ("uid","created_at");--> statement-breakpoint
CREATE INDEX "deposits_status" ON "deposits" USING btree ("status");--> statement-breakpoint
CREATE INDEX "chain_events_payment_ref" ON "chain_events" USING btree (("args"->>'paymentRef')) WHERE "chain_events"."event_name" = 'BatchPaid';