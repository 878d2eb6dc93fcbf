CREATE TABLE "post_counts" (
	"category" text NOT NULL,
	"published" boolean NOT NULL,
	"scheduled" boolean NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "post_counts_category_published_scheduled_pk" PRIMARY KEY("category","published","scheduled")
);
--> statement-breakpoint
DROP INDEX "blog_posts_category_published_at_idx";--> statement-breakpoint
DROP INDEX "blog_posts_updated_idx";--> statement-breakpoint
DROP INDEX "blog_posts_published_updated_idx";--> statement-breakpoint
CREATE INDEX "blog_posts_category_published_at_id_idx" ON "blog_posts" USING btree ("category","published","published_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "blog_posts_updated_id_idx" ON "blog_posts" USING btree ("updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "blog_posts_published_updated_id_idx" ON "blog_posts" USING btree ("published","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "blog_posts_category_published_updated_idx" ON "blog_posts" USING btree ("category","published","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "blog_posts_scheduled_updated_id_idx" ON "blog_posts" USING btree ("published","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "blog_posts"."scheduled_at" is not null;--> statement-breakpoint
CREATE INDEX "blog_posts_published_created_id_idx" ON "blog_posts" USING btree ("published","created_at","id");