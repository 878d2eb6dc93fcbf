-- post_counts (schema.server.ts) kept exact by triggers in the writing transaction: one row per
-- (category, published, scheduled). An UPDATE that leaves a post's kind alone writes nothing.
CREATE FUNCTION "post_counts_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.category = NEW.category AND OLD.published = NEW.published
     AND (OLD.scheduled_at IS NULL) = (NEW.scheduled_at IS NULL) THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "post_counts" SET "n" = "n" - 1
    WHERE "category" = OLD.category AND "published" = OLD.published AND "scheduled" = (OLD.scheduled_at IS NOT NULL);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO "post_counts" ("category", "published", "scheduled", "n")
    VALUES (NEW.category, NEW.published, NEW.scheduled_at IS NOT NULL, 1)
    ON CONFLICT ("category", "published", "scheduled") DO UPDATE SET "n" = "post_counts"."n" + 1;
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
CREATE TRIGGER "blog_posts_counts" AFTER INSERT OR DELETE OR UPDATE OF "category", "published", "scheduled_at" ON "blog_posts"
  FOR EACH ROW EXECUTE FUNCTION "post_counts_track"();--> statement-breakpoint
CREATE TRIGGER "blog_posts_counts_truncate" AFTER TRUNCATE ON "blog_posts"
  FOR EACH STATEMENT EXECUTE FUNCTION "post_counts_reset"();--> statement-breakpoint
INSERT INTO "post_counts" ("category", "published", "scheduled", "n")
SELECT "category", "published", "scheduled_at" IS NOT NULL, count(*)::int FROM "blog_posts" GROUP BY 1, 2, 3;
