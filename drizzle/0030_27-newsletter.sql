ALTER TABLE "blog_posts" ADD COLUMN "email_on_publish" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "emailed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "emailed_count" integer;--> statement-breakpoint
-- Posts already sent to subscribers count as emailed: publishing them again never sends them twice.
UPDATE "blog_posts" SET "emailed_at" = s."first_sent", "emailed_count" = s."n"
FROM (SELECT "post_id", min("sent_at") AS "first_sent", count(*)::integer AS "n" FROM "newsletter_sends" WHERE "sent_at" IS NOT NULL GROUP BY "post_id") AS s
WHERE s."post_id" = "blog_posts"."id";
