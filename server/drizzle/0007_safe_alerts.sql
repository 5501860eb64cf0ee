ALTER TABLE "alert_deliveries" ADD COLUMN "event_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_deliveries_rule_key" ON "alert_deliveries" USING btree ("rule_id","event_key");