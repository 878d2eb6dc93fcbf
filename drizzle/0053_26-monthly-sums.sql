CREATE TABLE "analytics_monthly" (
	"month" text NOT NULL,
	"dimension" text NOT NULL,
	"value" text NOT NULL,
	"views" bigint NOT NULL,
	"visitors" bigint NOT NULL,
	"visits" bigint NOT NULL,
	"bounces" bigint NOT NULL,
	"visit_seconds" bigint NOT NULL,
	CONSTRAINT "analytics_monthly_month_dimension_value_pk" PRIMARY KEY("month","dimension","value")
);
