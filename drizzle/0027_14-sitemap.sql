DROP INDEX "blog_posts_published_created_id_idx";--> statement-breakpoint
CREATE INDEX "blog_posts_published_id_idx" ON "blog_posts" USING btree ("published","id","category","slug","updated_at");