-- Demo posts seeded before alt text existed: give their shipped banners the alt text new seeds get,
-- so they still publish (a published post needs alt text for every image it shows).
UPDATE "blog_posts" SET "featured_image_alt" = 'Purple banner with the word Faith' WHERE "featured_image_url" = '/images/posts/faith-800.webp' AND coalesce("featured_image_alt", '') = '';--> statement-breakpoint
UPDATE "blog_posts" SET "featured_image_alt" = 'Green banner with the word Finance' WHERE "featured_image_url" = '/images/posts/finance-800.webp' AND coalesce("featured_image_alt", '') = '';--> statement-breakpoint
UPDATE "blog_posts" SET "featured_image_alt" = 'Red banner with the word Fitness' WHERE "featured_image_url" = '/images/posts/fitness-800.webp' AND coalesce("featured_image_alt", '') = '';--> statement-breakpoint
UPDATE "blog_posts" SET "featured_image_alt" = 'Orange banner with the word Fun' WHERE "featured_image_url" = '/images/posts/fun-800.webp' AND coalesce("featured_image_alt", '') = '';--> statement-breakpoint
UPDATE "blog_posts" SET "featured_image_alt" = 'Pink banner with the word Family' WHERE "featured_image_url" = '/images/posts/family-800.webp' AND coalesce("featured_image_alt", '') = '';--> statement-breakpoint
UPDATE "blog_posts" SET "featured_image_alt" = 'Grey banner with the word Figurehead' WHERE "featured_image_url" = '/images/posts/figurehead-800.webp' AND coalesce("featured_image_alt", '') = '';
