DROP INDEX "blog_posts_search_idx";--> statement-breakpoint
CREATE INDEX "blog_posts_search_idx" ON "blog_posts" USING gin ("search_vector",search_era("published_at")) WITH (fastupdate=false);