-- Custom (drizzle cannot express functions). Phrase search: a post matches "a b" only when its
-- stored vector has `b` one position after `a`; the GIN index of words cannot tell, so every post
-- holding both words had its vector read (2,246 of them, 314 ms, for one phrase at 100,000 posts).
-- The index blog_posts_search_pairs_idx (next migration, schema.server.ts) holds each post's
-- adjacent pairs of lexemes, read from the stored vector itself (so exactly the pairs `<->` can
-- match, with its 256-positions-per-lexeme and 16,383rd-position limits), each hashed into one of
-- 65,536 codes: a search ANDs the codes of its phrases' pairs (features/search/phrase-pairs.ts) as a
-- necessary condition, leaving ~0.5% of the posts holding both words for each pair. Codes rather than
-- the pairs themselves keep the index the size of the word index (a blog's pairs are nearly all
-- distinct); a shared code only lets a post through to the vector check.
CREATE FUNCTION "search_pair_code"("pair" text) RETURNS integer LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN hashtext("pair") & 65535;--> statement-breakpoint
CREATE FUNCTION "search_pair_codes"("vector" tsvector) RETURNS integer[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  BEGIN ATOMIC
    WITH "at" AS MATERIALIZED (SELECT "lexeme", unnest("positions") AS "position" FROM unnest("vector"))
    SELECT coalesce(array_agg("search_pair_code"("first"."lexeme" || ' ' || "second"."lexeme")), '{}')
    FROM "at" AS "first" JOIN "at" AS "second" ON "second"."position" = "first"."position" + 1;
  END;
