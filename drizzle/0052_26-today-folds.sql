CREATE TABLE "analytics_partial" (
	"day" text NOT NULL,
	"filter_dimension" text NOT NULL,
	"filter_value" text NOT NULL,
	"dimension" text NOT NULL,
	"value" text NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	"visits" integer NOT NULL,
	"bounces" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_partial_pk" PRIMARY KEY("day","filter_dimension","filter_value","dimension","value")
);
--> statement-breakpoint
CREATE TABLE "analytics_partial_days" (
	"day" text PRIMARY KEY NOT NULL,
	"folded_until" timestamp with time zone NOT NULL
);
