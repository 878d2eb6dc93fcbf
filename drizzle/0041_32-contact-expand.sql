-- Expand: the delivery columns 0029 dropped come back for one release, so the release before the mail
-- outbox can run beside this one during a rolling upgrade (docs/decisions/0067-rolling-upgrade-test.md).
-- Every message stored so far has its mail in the outbox: it is "sent" for the previous release's loop.
ALTER TABLE "contact_messages" ADD COLUMN "delivery_state" text DEFAULT 'sent' NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_messages" ALTER COLUMN "delivery_state" SET DEFAULT 'pending';--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
-- A message the previous release was sending while 0028 ran (in this same transaction) is still its own:
-- back to 'sending' under its lease, so that release marks it sent (docs/decisions/0067-rolling-upgrade-test.md).
-- A database that ran 0028 in an earlier start has no such table: an empty one stands in.
CREATE TEMP TABLE IF NOT EXISTS "contact_messages_in_flight" ("id" uuid, "attempts" integer, "last_error" text, "next_attempt_at" timestamp with time zone, "locked_until" timestamp with time zone) ON COMMIT DROP;--> statement-breakpoint
UPDATE "contact_messages" SET "delivery_state" = 'sending', "attempts" = f."attempts", "last_error" = f."last_error", "next_attempt_at" = f."next_attempt_at", "locked_until" = f."locked_until"
FROM "contact_messages_in_flight" f WHERE "contact_messages"."id" = f."id";--> statement-breakpoint
CREATE INDEX "contact_messages_outbox_idx" ON "contact_messages" USING btree ("delivery_state","next_attempt_at");
