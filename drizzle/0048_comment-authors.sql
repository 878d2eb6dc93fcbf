CREATE TABLE "comment_authors" (
	"email" text PRIMARY KEY NOT NULL,
	"confirmed_at" timestamp with time zone,
	"confirm_token_hash" text,
	"confirm_expires_at" timestamp with time zone,
	"confirm_sent_at" timestamp with time zone,
	"trusted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "comment_authors_confirm_token_idx" ON "comment_authors" USING btree ("confirm_token_hash");