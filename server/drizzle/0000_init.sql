CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uid" text NOT NULL,
	"email" text,
	"wallet" text,
	"action" text NOT NULL,
	"details" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_events" (
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"block_hash" text NOT NULL,
	"block_time" bigint NOT NULL,
	"transaction_hash" text NOT NULL,
	"contract" text NOT NULL,
	"event_name" text NOT NULL,
	"signature" text NOT NULL,
	"args" jsonb NOT NULL,
	"from_address" text,
	"to_address" text,
	"account" text,
	CONSTRAINT "chain_events_block_number_log_index_pk" PRIMARY KEY("block_number","log_index")
);
--> statement-breakpoint
CREATE TABLE "indexed_blocks" (
	"block_number" bigint PRIMARY KEY NOT NULL,
	"block_hash" text NOT NULL,
	"block_time" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "indexer_state" (
	"id" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"proxy" text NOT NULL,
	"deployment_block_hash" text NOT NULL,
	"checkpoint_block" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "siwe_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"used_by" text
);
--> statement-breakpoint
CREATE INDEX "audit_log_created" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "chain_events_name_block" ON "chain_events" USING btree ("event_name","block_number");--> statement-breakpoint
CREATE INDEX "chain_events_from" ON "chain_events" USING btree ("from_address","block_number");--> statement-breakpoint
CREATE INDEX "chain_events_to" ON "chain_events" USING btree ("to_address","block_number");--> statement-breakpoint
CREATE INDEX "chain_events_account" ON "chain_events" USING btree ("account");--> statement-breakpoint
CREATE INDEX "chain_events_tx" ON "chain_events" USING btree ("transaction_hash");