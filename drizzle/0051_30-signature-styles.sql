CREATE TABLE "fediverse_instances" (
	"host" text PRIMARY KEY NOT NULL,
	"signature_style" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fediverse_instances_style_check" CHECK ("fediverse_instances"."signature_style" in ('rfc9421', 'cavage'))
);
