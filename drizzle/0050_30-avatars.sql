ALTER TABLE "comments" ADD COLUMN "author_photo_url" text;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "author_avatar_key" text;--> statement-breakpoint
ALTER TABLE "fediverse_actors" ADD COLUMN "icon_url" text;