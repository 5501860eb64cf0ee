CREATE TABLE "bank_wallet_challenges" (
	"nonce" text PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"address" text NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "bank_wallets" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bank_wallets" ADD COLUMN "verified_by" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "signed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "bank_wallet_challenges_expires" ON "bank_wallet_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "deposits_created" ON "deposits" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "deposits_user_signed" ON "deposits" USING btree ("uid","signed_at");--> statement-breakpoint
-- A wallet sign-in's own address was proved by that sign-in; mints already signed keep their place in the fair order.
UPDATE "bank_wallets" SET "verified_at" = "created_at", "verified_by" = 'sign-in' WHERE "uid" = 'wallet:' || lower("address");--> statement-breakpoint
UPDATE "deposits" SET "signed_at" = "created_at" WHERE "signed_tx" IS NOT NULL;
