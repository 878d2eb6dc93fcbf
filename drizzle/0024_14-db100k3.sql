DROP INDEX "blog_posts_published_updated_id_idx";--> statement-breakpoint
DROP INDEX "blog_posts_published_created_id_idx";--> statement-breakpoint
CREATE INDEX "blog_posts_published_updated_id_idx" ON "blog_posts" USING btree ("published","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST,"scheduled_at");--> statement-breakpoint
CREATE INDEX "blog_posts_published_created_id_idx" ON "blog_posts" USING btree ("published","created_at","id","category","slug","updated_at");