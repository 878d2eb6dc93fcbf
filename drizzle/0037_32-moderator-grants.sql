ALTER TABLE "user" ADD COLUMN "grants" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- "Moderators may view Statistics" (a site-wide setting) becomes a grant on each moderator it covered.
UPDATE "user" SET "grants" = array_append("grants", 'statistics')
WHERE "id" IN (SELECT "user_id" FROM "user_roles" WHERE "role" = 'moderator')
  AND EXISTS (
    SELECT 1 FROM "app_settings"
    WHERE "key" = 'analytics_settings' AND "value" ~ '"moderatorsMayView"\s*:\s*true'
  );
