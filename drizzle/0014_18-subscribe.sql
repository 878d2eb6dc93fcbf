CREATE TABLE "newsletter_sends" (
	"post_id" uuid NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "newsletter_sends_post_id_subscriber_id_pk" PRIMARY KEY("post_id","subscriber_id")
);
--> statement-breakpoint
CREATE TABLE "subscribers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"categories" text[] NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"confirm_token_hash" text,
	"confirm_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"unsubscribed_at" timestamp with time zone,
	CONSTRAINT "subscribers_state_check" CHECK ("subscribers"."state" in ('pending', 'confirmed', 'unsubscribed')),
	CONSTRAINT "subscribers_categories_check" CHECK ("subscribers"."categories" <@ array['Faith', 'Finance', 'Fitness', 'Fun', 'Friends', 'Family', 'Figurehead']::text[])
);
--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD CONSTRAINT "newsletter_sends_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD CONSTRAINT "newsletter_sends_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "newsletter_sends_subscriber_idx" ON "newsletter_sends" USING btree ("subscriber_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscribers_email_idx" ON "subscribers" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "subscribers_confirm_token_idx" ON "subscribers" USING btree ("confirm_token_hash");--> statement-breakpoint
CREATE INDEX "subscribers_categories_idx" ON "subscribers" USING gin ("categories");