-- Blog Management's title search (`title ilike '%…%'`) reads every title without this: a trigram
-- GIN index answers it from the index. pg_trgm is a contrib extension: a PostgreSQL without the
-- contrib package, or a role that may not create it, keeps the plain scan (same results, slower).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX IF NOT EXISTS "blog_posts_title_trgm_idx" ON "blog_posts" USING gin ("title" gin_trgm_ops);
  ELSE
    RAISE NOTICE 'pg_trgm is not available: Blog Management''s title search scans every title';
  END IF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'pg_trgm could not be created (%): Blog Management''s title search scans every title', SQLERRM;
END $$;
