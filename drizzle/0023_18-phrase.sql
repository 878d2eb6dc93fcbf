-- drizzle-kit wrote DROP + CREATE of blog_posts_search_idx for the new storage parameter: the same index
-- without a rebuild is ALTER + merging the pending list it stops using.
ALTER INDEX "blog_posts_search_idx" SET (fastupdate=false);--> statement-breakpoint
SELECT gin_clean_pending_list('blog_posts_search_idx');--> statement-breakpoint
CREATE INDEX "blog_posts_search_pairs_idx" ON "blog_posts" USING gin (search_pair_codes("search_vector")) WITH (fastupdate=false);
