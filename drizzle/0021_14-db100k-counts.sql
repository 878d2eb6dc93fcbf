-- post_counts (schema.server.ts) kept exact by statement-level triggers in the writing transaction:
-- each INSERT / UPDATE / DELETE on blog_posts adds its net change per (category, published, scheduled)
-- in one upsert, so a bulk load (seed, import, restore) writes a few rows, not one per post, and an
-- UPDATE that leaves every post's kind alone writes nothing. Rows are upserted in key order, so two
-- concurrent writers lock them in the same order.
CREATE FUNCTION "post_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "post_counts" ("category", "published", "scheduled", "n")
    SELECT "category", "published", "scheduled_at" IS NOT NULL, count(*)::int FROM "post_counts_new" GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("category", "published", "scheduled") DO UPDATE SET "n" = "post_counts"."n" + excluded."n";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "post_counts" ("category", "published", "scheduled", "n")
    SELECT "category", "published", "scheduled_at" IS NOT NULL, -count(*)::int FROM "post_counts_old" GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("category", "published", "scheduled") DO UPDATE SET "n" = "post_counts"."n" + excluded."n";
  ELSE
    INSERT INTO "post_counts" ("category", "published", "scheduled", "n")
    SELECT "category", "published", "scheduled", sum("d")::int
    FROM (
      SELECT "category", "published", "scheduled_at" IS NOT NULL AS "scheduled", 1 AS "d" FROM "post_counts_new"
      UNION ALL
      SELECT "category", "published", "scheduled_at" IS NOT NULL, -1 FROM "post_counts_old"
    ) AS "changes"
    GROUP BY 1, 2, 3 HAVING sum("d") <> 0 ORDER BY 1, 2, 3
    ON CONFLICT ("category", "published", "scheduled") DO UPDATE SET "n" = "post_counts"."n" + excluded."n";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "post_counts_reset"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "post_counts";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "blog_posts_counts_insert" AFTER INSERT ON "blog_posts"
  REFERENCING NEW TABLE AS "post_counts_new" FOR EACH STATEMENT EXECUTE FUNCTION "post_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "blog_posts_counts_update" AFTER UPDATE ON "blog_posts"
  REFERENCING OLD TABLE AS "post_counts_old" NEW TABLE AS "post_counts_new" FOR EACH STATEMENT EXECUTE FUNCTION "post_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "blog_posts_counts_delete" AFTER DELETE ON "blog_posts"
  REFERENCING OLD TABLE AS "post_counts_old" FOR EACH STATEMENT EXECUTE FUNCTION "post_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "blog_posts_counts_truncate" AFTER TRUNCATE ON "blog_posts"
  FOR EACH STATEMENT EXECUTE FUNCTION "post_counts_reset"();--> statement-breakpoint
INSERT INTO "post_counts" ("category", "published", "scheduled", "n")
SELECT "category", "published", "scheduled_at" IS NOT NULL, count(*)::int FROM "blog_posts" GROUP BY 1, 2, 3;
