CREATE TABLE "analytics_daily_filtered" (
	"day" text NOT NULL,
	"filter_dimension" text NOT NULL,
	"filter_value" text NOT NULL,
	"dimension" text NOT NULL,
	"value" text NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	"visits" integer NOT NULL,
	"bounces" integer DEFAULT 0 NOT NULL,
	"median_visit_seconds" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_filtered_pk" PRIMARY KEY("filter_dimension","filter_value","day","dimension","value")
);
--> statement-breakpoint
ALTER TABLE "analytics_rolled_days" ADD COLUMN "filtered" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "analytics_daily_filtered_day_idx" ON "analytics_daily_filtered" USING btree ("day");