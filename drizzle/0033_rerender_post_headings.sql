-- Stored renderings predate normalised heading levels: clearing the HTML makes the start-up backfill
-- (backfillRenderedPosts) render every post again; until it reaches a row, the page renders it live.
UPDATE "blog_posts" SET "content_html" = NULL;
