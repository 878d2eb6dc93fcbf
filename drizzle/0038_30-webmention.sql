CREATE TABLE "webmention_sends" (
	"post_id" uuid NOT NULL,
	"target" text NOT NULL,
	"version" text NOT NULL,
	"endpoint" text,
	"status" integer,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webmention_sends_post_id_target_pk" PRIMARY KEY("post_id","target")
);
--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "source_url" text;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "mention_kind" text;--> statement-breakpoint
ALTER TABLE "webmention_sends" ADD CONSTRAINT "webmention_sends_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "comments_post_source_idx" ON "comments" USING btree ("post_id","source_url");--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_mention_kind_check" CHECK ("comments"."mention_kind" is null or "comments"."mention_kind" in ('reply', 'like', 'repost', 'mention'));