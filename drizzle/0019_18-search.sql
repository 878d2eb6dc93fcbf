-- Custom (drizzle cannot express a table's storage parameters). Search finds its matches in the GIN
-- index and then visits each matching row for published/published_at: with the body kept inline
-- (compressed, ~1.5 kB) a common word's matches spread over most of the table's pages. Moving long
-- values out of line as soon as a row passes 128 bytes keeps the rows small (100,000 posts: 200 MB
-- of rows → 17 MB) so those visits stay cheap; a post's own page reads its body out of line, once.
-- Rows written before this migration move out when next written (or by a VACUUM FULL).
ALTER TABLE "blog_posts" SET (toast_tuple_target = 128);
