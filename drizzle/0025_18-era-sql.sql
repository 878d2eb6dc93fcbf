-- Custom (drizzle cannot express functions). Search's window (the newest posts) as part of the word
-- index: a very common word's GIN posting list (40,854 posts of 100,000) was read whole into a bitmap
-- and ANDed with the window's published_at range, although only the window's ~800 mattered. The
-- index blog_posts_search_idx (next migration, schema.server.ts) holds, beside each post's words, its
-- publication day at 8 levels (blocks of 1, 8, 64 … 2,097,152 days); a window is the few blocks
-- covering its days (`&&`), and GIN skips through the word's long list to those blocks' few posts.
-- The codes are only a necessary condition: the search still checks published_at exactly.
--
-- A day: days since 1970-01-01 UTC, clamped to ±2^24 (±45,000 years), so infinity has one too and
-- the order of instants is kept (clamping keeps it, not strictly). extract(epoch …) is the same
-- instant in every time zone (extract is STABLE only for its other fields).
CREATE FUNCTION "search_era_day"("at" timestamptz) RETURNS integer LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN least(greatest(floor(extract(epoch FROM "at") / 86400), -16777216), 16777215)::integer;--> statement-breakpoint
-- A post's codes: for each level L (0–7), the block of 8^L days holding its day, as block * 16 + L.
CREATE FUNCTION "search_era"("at" timestamptz) RETURNS integer[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN ARRAY(
    SELECT ("day" >> (3 * "level")) * 16 + "level"
    FROM (SELECT "search_era_day"("at") AS "day") AS "d", generate_series(0, 7) AS "level"
    ORDER BY "level"
  );--> statement-breakpoint
-- The codes whose blocks exactly tile the days from `from`'s to `until`'s, both included: at each
-- level the whole blocks inside the range whose parent block (8 of them) is not inside it — at most 7
-- at each end — and at the top level every whole block inside. `until` may be infinity.
CREATE FUNCTION "search_era_range"("from" timestamptz, "until" timestamptz) RETURNS integer[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN ARRAY(
    SELECT DISTINCT "blocks"."block" * 16 + "level"
    FROM (SELECT "search_era_day"("from") AS "a", "search_era_day"("until") + 1 AS "b") AS "days",
      generate_series(0, 7) AS "level",
      LATERAL (
        SELECT -((-"a") >> (3 * "level")) AS "lo",
          ("b" >> (3 * "level")) - 1 AS "hi",
          -((-"a") >> (3 * "level" + 3)) * 8 AS "left_end",
          ("b" >> (3 * "level" + 3)) * 8 AS "right_start"
      ) AS "edges",
      LATERAL (
        SELECT generate_series("lo", CASE WHEN "level" = 7 THEN "hi" ELSE least("hi", "left_end" - 1) END)
        UNION
        SELECT generate_series(greatest("lo", "right_start"), "hi") WHERE "level" < 7
      ) AS "blocks"("block")
    ORDER BY 1
  );
