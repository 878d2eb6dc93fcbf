ALTER TABLE "blog_media" ADD COLUMN "alt" text;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "featured_image_alt" text;--> statement-breakpoint
ALTER TABLE "post_autosaves" ADD COLUMN "featured_image_alt" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "post_revisions" ADD COLUMN "featured_image_alt" text;