CREATE TABLE "comment_blocks" (
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comment_blocks_kind_value_pk" PRIMARY KEY("kind","value"),
	CONSTRAINT "comment_blocks_kind_check" CHECK ("comment_blocks"."kind" in ('email', 'ip', 'keyword', 'host'))
);
--> statement-breakpoint
CREATE TABLE "comment_spam_tokens" (
	"token" text PRIMARY KEY NOT NULL,
	"spam" integer DEFAULT 0 NOT NULL,
	"ham" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid NOT NULL,
	"parent_id" uuid,
	"author_name" text NOT NULL,
	"author_email" text NOT NULL,
	"author_url" text,
	"author_user_id" text,
	"body" text NOT NULL,
	"body_html" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"spam_score" real,
	"ip_address" text,
	"notify_replies" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_at" timestamp with time zone,
	CONSTRAINT "comments_state_check" CHECK ("comments"."state" in ('pending', 'approved', 'spam'))
);
--> statement-breakpoint
CREATE TABLE "comments_closed_posts" (
	"post_id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_parent_id_comments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_author_user_id_user_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments_closed_posts" ADD CONSTRAINT "comments_closed_posts_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comments_post_state_created_idx" ON "comments" USING btree ("post_id","state","created_at");--> statement-breakpoint
CREATE INDEX "comments_state_created_idx" ON "comments" USING btree ("state","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "comments_email_state_idx" ON "comments" USING btree ("author_email","state");--> statement-breakpoint
CREATE INDEX "comments_parent_idx" ON "comments" USING btree ("parent_id");