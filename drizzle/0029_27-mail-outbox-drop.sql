ALTER TABLE "contact_messages" DROP CONSTRAINT "contact_messages_state_check";--> statement-breakpoint
DROP INDEX "contact_messages_outbox_idx";--> statement-breakpoint
ALTER TABLE "contact_messages" DROP COLUMN "delivery_state";--> statement-breakpoint
ALTER TABLE "contact_messages" DROP COLUMN "attempts";--> statement-breakpoint
ALTER TABLE "contact_messages" DROP COLUMN "last_error";--> statement-breakpoint
ALTER TABLE "contact_messages" DROP COLUMN "next_attempt_at";--> statement-breakpoint
ALTER TABLE "contact_messages" DROP COLUMN "locked_until";--> statement-breakpoint
ALTER TABLE "contact_messages" DROP COLUMN "delivered_at";