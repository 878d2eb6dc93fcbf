-- Posts published before published_at existed were published when created (issue 13): keep their dates.
UPDATE "blog_posts" SET "published_at" = "created_at" WHERE "published" = true AND "published_at" IS NULL;
