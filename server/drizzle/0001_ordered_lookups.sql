DROP INDEX "chain_events_name_block";--> statement-breakpoint
DROP INDEX "chain_events_from";--> statement-breakpoint
DROP INDEX "chain_events_to";--> statement-breakpoint
CREATE INDEX "chain_events_name_order" ON "chain_events" USING btree ("event_name","block_number","log_index");--> statement-breakpoint
CREATE INDEX "chain_events_from_order" ON "chain_events" USING btree ("from_address","block_number","log_index");--> statement-breakpoint
CREATE INDEX "chain_events_to_order" ON "chain_events" USING btree ("to_address","block_number","log_index");