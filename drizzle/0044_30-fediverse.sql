CREATE TABLE "fediverse_actors" (
	"key_id" text PRIMARY KEY NOT NULL,
	"actor_id" text NOT NULL,
	"public_key_pem" text NOT NULL,
	"inbox" text NOT NULL,
	"shared_inbox" text,
	"handle" text NOT NULL,
	"name" text NOT NULL,
	"profile_url" text NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fediverse_followers" (
	"actor_id" text PRIMARY KEY NOT NULL,
	"handle" text NOT NULL,
	"inbox" text NOT NULL,
	"shared_inbox" text,
	"follow_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fediverse_posts" (
	"post_id" uuid PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"deleted_at" timestamp with time zone,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "fediverse_handle" text;