CREATE TABLE "analytics_conversions" (
	"kind" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"at" timestamp with time zone,
	"entry_path" text,
	"referrer_host" text,
	"utm_source" text,
	"utm_campaign" text,
	"last_post_path" text,
	CONSTRAINT "analytics_conversions_kind_subject_id_pk" PRIMARY KEY("kind","subject_id"),
	CONSTRAINT "analytics_conversions_kind_check" CHECK ("analytics_conversions"."kind" in ('contact', 'subscription', 'booking'))
);
--> statement-breakpoint
CREATE TABLE "analytics_daily" (
	"day" text NOT NULL,
	"dimension" text NOT NULL,
	"value" text NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	"visits" integer NOT NULL,
	"bounces" integer DEFAULT 0 NOT NULL,
	"median_visit_seconds" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_day_dimension_value_pk" PRIMARY KEY("day","dimension","value")
);
--> statement-breakpoint
CREATE TABLE "analytics_dropped" (
	"minute" timestamp with time zone PRIMARY KEY NOT NULL,
	"views" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_rolled_days" (
	"day" text PRIMARY KEY NOT NULL,
	"rolled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_salts" (
	"day" text PRIMARY KEY NOT NULL,
	"salt" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_views" (
	"minute" timestamp with time zone NOT NULL,
	"path" text NOT NULL,
	"referrer_host" text,
	"referrer_path" text,
	"utm_source" text,
	"utm_medium" text,
	"utm_campaign" text,
	"country" text,
	"device" text NOT NULL,
	"browser" text NOT NULL,
	"os" text NOT NULL,
	"visitor_id" bigint NOT NULL,
	"visit_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "analytics_conversions_at_idx" ON "analytics_conversions" USING btree ("at");--> statement-breakpoint
CREATE INDEX "analytics_daily_dimension_idx" ON "analytics_daily" USING btree ("dimension","day");--> statement-breakpoint
CREATE INDEX "analytics_views_minute_idx" ON "analytics_views" USING btree ("minute");--> statement-breakpoint
CREATE INDEX "analytics_views_visitor_idx" ON "analytics_views" USING btree ("visitor_id","minute");