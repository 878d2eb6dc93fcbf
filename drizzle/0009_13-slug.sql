CREATE TABLE "post_redirects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"category" text NOT NULL,
	"slug" text NOT NULL,
	"post_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "post_redirects_category_check" CHECK ("post_redirects"."category" in ('Faith', 'Finance', 'Fitness', 'Fun', 'Friends', 'Family', 'Figurehead'))
);
--> statement-breakpoint
ALTER TABLE "post_autosaves" ADD COLUMN "details" jsonb;--> statement-breakpoint
ALTER TABLE "post_redirects" ADD CONSTRAINT "post_redirects_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "post_redirects_slug_category_idx" ON "post_redirects" USING btree ("slug","category");--> statement-breakpoint
CREATE INDEX "post_redirects_post_created_idx" ON "post_redirects" USING btree ("post_id","created_at");