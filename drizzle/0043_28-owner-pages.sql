CREATE TABLE "owner_page_autosaves" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"author_id" text NOT NULL,
	"page_id" uuid,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"base_version" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "owner_page_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"page_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"author_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "owner_page_revisions_kind_check" CHECK ("owner_page_revisions"."kind" in ('save', 'publish', 'unpublish', 'schedule'))
);
--> statement-breakpoint
CREATE TABLE "owner_pages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"address" text NOT NULL,
	"content" text NOT NULL,
	"content_html" text NOT NULL,
	"meta_title" text,
	"meta_description" text,
	"published" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"author_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "owner_pages_address_unique" UNIQUE("address")
);
--> statement-breakpoint
ALTER TABLE "owner_page_autosaves" ADD CONSTRAINT "owner_page_autosaves_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owner_page_autosaves" ADD CONSTRAINT "owner_page_autosaves_page_id_owner_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."owner_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owner_page_revisions" ADD CONSTRAINT "owner_page_revisions_page_id_owner_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."owner_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owner_page_revisions" ADD CONSTRAINT "owner_page_revisions_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owner_pages" ADD CONSTRAINT "owner_pages_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "owner_page_autosaves_author_page_idx" ON "owner_page_autosaves" USING btree ("author_id","page_id") WHERE "owner_page_autosaves"."page_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "owner_page_autosaves_author_new_idx" ON "owner_page_autosaves" USING btree ("author_id") WHERE "owner_page_autosaves"."page_id" is null;--> statement-breakpoint
CREATE INDEX "owner_page_revisions_page_created_idx" ON "owner_page_revisions" USING btree ("page_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "owner_pages_published_idx" ON "owner_pages" USING btree ("published","address");