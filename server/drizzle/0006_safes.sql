CREATE TABLE "safe_approvals" (
	"safe_tx_hash" text NOT NULL,
	"owner" text NOT NULL,
	"signature" text NOT NULL,
	"approved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "safe_approvals_safe_tx_hash_owner_pk" PRIMARY KEY("safe_tx_hash","owner")
);
--> statement-breakpoint
CREATE TABLE "safe_proposals" (
	"safe_tx_hash" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"safe" text NOT NULL,
	"nonce" bigint NOT NULL,
	"to_address" text NOT NULL,
	"value" text NOT NULL,
	"data" text NOT NULL,
	"operation" integer NOT NULL,
	"safe_tx_gas" text NOT NULL,
	"base_gas" text NOT NULL,
	"gas_price" text NOT NULL,
	"gas_token" text NOT NULL,
	"refund_receiver" text NOT NULL,
	"description" text NOT NULL,
	"proposer" text NOT NULL,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"proposed_block" bigint NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"executed_tx" text
);
--> statement-breakpoint
ALTER TABLE "safe_approvals" ADD CONSTRAINT "safe_approvals_safe_tx_hash_safe_proposals_safe_tx_hash_fk" FOREIGN KEY ("safe_tx_hash") REFERENCES "public"."safe_proposals"("safe_tx_hash") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "safe_proposals_safe_nonce" ON "safe_proposals" USING btree ("chain_id","safe","nonce");