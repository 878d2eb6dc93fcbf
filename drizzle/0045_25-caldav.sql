ALTER TABLE "booking_calendar_feeds" ADD COLUMN "kind" text DEFAULT 'ics' NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_calendar_feeds" ADD COLUMN "username" text;--> statement-breakpoint
ALTER TABLE "booking_calendar_feeds" ADD COLUMN "password_sealed" text;