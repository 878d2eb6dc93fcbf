CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"recipient" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 8 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"locked_by" text,
	"last_error" text,
	"last_attempt_at" timestamp with time zone,
	"dedupe_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "mail_outbox_dedupe_key_unique" UNIQUE("dedupe_key"),
	CONSTRAINT "mail_outbox_state_check" CHECK ("mail_outbox"."state" in ('pending', 'sending', 'sent', 'failed', 'skipped'))
);
--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "mail_id" uuid;--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("next_attempt_at") WHERE "mail_outbox"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "mail_outbox_lease_idx" ON "mail_outbox" USING btree ("locked_until") WHERE "mail_outbox"."state" = 'sending';--> statement-breakpoint
CREATE INDEX "mail_outbox_created_idx" ON "mail_outbox" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mail_outbox_attempt_idx" ON "mail_outbox" USING btree ("last_attempt_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "contact_messages" ADD CONSTRAINT "contact_messages_mail_id_mail_outbox_id_fk" FOREIGN KEY ("mail_id") REFERENCES "public"."mail_outbox"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_messages_mail_idx" ON "contact_messages" USING btree ("mail_id");--> statement-breakpoint
-- A message the previous release is sending right now (claimed, its lease still running) stays that
-- release's during a rolling upgrade: an outbox row would send it a second time, and the previous release
-- could no longer mark it sent (docs/decisions/0067-rolling-upgrade-test.md). The ALTER TABLE above holds
-- the table, so no claim starts or ends from here to the commit; 0041 gives these back their lease, and
-- the mail outbox adopts one whose lease runs out or whose attempt failed. One transaction runs every
-- pending migration, so the table lives until 0041 has read it.
CREATE TEMP TABLE "contact_messages_in_flight" ON COMMIT DROP AS
SELECT "id", "attempts", "last_error", "next_attempt_at", "locked_until" FROM "contact_messages"
WHERE "delivery_state" = 'sending' AND "locked_until" > now();--> statement-breakpoint
-- Contact messages stored before the outbox keep their delivery state as an outbox row each.
INSERT INTO "mail_outbox" ("kind", "recipient", "payload", "state", "attempts", "next_attempt_at", "last_error", "last_attempt_at", "created_at", "sent_at", "dedupe_key")
SELECT 'contact.forward', '', jsonb_build_object('messageId', "id"::text),
  CASE "delivery_state" WHEN 'sending' THEN 'pending' ELSE "delivery_state" END,
  "attempts", "next_attempt_at", "last_error", CASE WHEN "attempts" > 0 THEN coalesce("delivered_at", "next_attempt_at") END,
  "created_at", "delivered_at", 'contact:' || "id"::text
FROM "contact_messages" WHERE "id" NOT IN (SELECT "id" FROM "contact_messages_in_flight");--> statement-breakpoint
UPDATE "contact_messages" SET "mail_id" = m."id" FROM "mail_outbox" m WHERE m."dedupe_key" = 'contact:' || "contact_messages"."id"::text;
