CREATE TABLE "booking_busy_times" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"feed_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "booking_calendar_feeds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"label" text NOT NULL,
	"url" text NOT NULL,
	"refresh_minutes" integer DEFAULT 10 NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "booking_call_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"duration_minutes" integer NOT NULL,
	"increment_minutes" integer DEFAULT 30 NOT NULL,
	"buffer_before_minutes" integer DEFAULT 0 NOT NULL,
	"buffer_after_minutes" integer DEFAULT 0 NOT NULL,
	"minimum_notice_minutes" integer DEFAULT 720 NOT NULL,
	"horizon_days" integer DEFAULT 60 NOT NULL,
	"daily_cap" integer,
	"location" text DEFAULT 'link-later' NOT NULL,
	"video_url" text,
	"questions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"remind_24h" boolean DEFAULT true NOT NULL,
	"remind_1h" boolean DEFAULT true NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_call_types_slug_unique" UNIQUE("slug"),
	CONSTRAINT "booking_call_types_location_check" CHECK ("booking_call_types"."location" in ('video', 'phone', 'link-later')),
	CONSTRAINT "booking_call_types_duration_check" CHECK ("booking_call_types"."duration_minutes" between 5 and 480),
	CONSTRAINT "booking_call_types_increment_check" CHECK ("booking_call_types"."increment_minutes" between 5 and 480),
	CONSTRAINT "booking_call_types_buffers_check" CHECK ("booking_call_types"."buffer_before_minutes" between 0 and 240 and "booking_call_types"."buffer_after_minutes" between 0 and 240),
	CONSTRAINT "booking_call_types_notice_check" CHECK ("booking_call_types"."minimum_notice_minutes" between 0 and 43200),
	CONSTRAINT "booking_call_types_horizon_check" CHECK ("booking_call_types"."horizon_days" between 1 and 365),
	CONSTRAINT "booking_call_types_cap_check" CHECK ("booking_call_types"."daily_cap" is null or "booking_call_types"."daily_cap" between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "booking_date_overrides" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"first_day" text NOT NULL,
	"last_day" text NOT NULL,
	"start_minute" integer,
	"end_minute" integer,
	"note" text DEFAULT '' NOT NULL,
	CONSTRAINT "booking_date_overrides_days_check" CHECK ("booking_date_overrides"."first_day" ~ '^\d{4}-\d{2}-\d{2}$' and "booking_date_overrides"."last_day" ~ '^\d{4}-\d{2}-\d{2}$' and "booking_date_overrides"."first_day" <= "booking_date_overrides"."last_day"),
	CONSTRAINT "booking_date_overrides_range_check" CHECK (("booking_date_overrides"."start_minute" is null and "booking_date_overrides"."end_minute" is null) or ("booking_date_overrides"."start_minute" >= 0 and "booking_date_overrides"."end_minute" <= 1440 and "booking_date_overrides"."start_minute" < "booking_date_overrides"."end_minute"))
);
--> statement-breakpoint
CREATE TABLE "booking_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"feed_token" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_settings_single_row" CHECK ("booking_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "booking_weekly_hours" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"weekday" integer NOT NULL,
	"start_minute" integer NOT NULL,
	"end_minute" integer NOT NULL,
	CONSTRAINT "booking_weekly_hours_weekday_check" CHECK ("booking_weekly_hours"."weekday" between 1 and 7),
	CONSTRAINT "booking_weekly_hours_range_check" CHECK ("booking_weekly_hours"."start_minute" >= 0 and "booking_weekly_hours"."end_minute" <= 1440 and "booking_weekly_hours"."start_minute" < "booking_weekly_hours"."end_minute")
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"call_type_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"blocked_from" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'confirmed' NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"reschedule_count" integer DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"company" text,
	"topic" text,
	"notes" text,
	"visitor_time_zone" text,
	"ip_address" text,
	"cancel_message" text,
	"no_show" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "bookings_status_check" CHECK ("bookings"."status" in ('confirmed', 'cancelled-by-visitor', 'cancelled-by-owner')),
	CONSTRAINT "bookings_times_check" CHECK ("bookings"."blocked_from" <= "bookings"."starts_at" and "bookings"."starts_at" < "bookings"."ends_at" and "bookings"."ends_at" <= "bookings"."blocked_until")
);
--> statement-breakpoint
ALTER TABLE "booking_busy_times" ADD CONSTRAINT "booking_busy_times_feed_id_booking_calendar_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."booking_calendar_feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_call_type_id_booking_call_types_id_fk" FOREIGN KEY ("call_type_id") REFERENCES "public"."booking_call_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_busy_times_range_idx" ON "booking_busy_times" USING btree ("starts_at","ends_at");--> statement-breakpoint
CREATE INDEX "bookings_starts_idx" ON "bookings" USING btree ("starts_at");