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
CREATE INDEX "contact_messages_outbox_idx" ON "contact_messages" USING btree ("delivery_state","next_attempt_at");
