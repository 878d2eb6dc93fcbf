ALTER TABLE "uploads" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "uploads_checked_at_idx" ON "uploads" USING btree ("checked_at");