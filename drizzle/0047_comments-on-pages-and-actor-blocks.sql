ALTER TABLE "comment_blocks" DROP CONSTRAINT "comment_blocks_kind_check";--> statement-breakpoint
ALTER TABLE "comments" ALTER COLUMN "post_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "page_id" uuid;--> statement-breakpoint
ALTER TABLE "owner_pages" ADD COLUMN "comments_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_page_id_owner_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."owner_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comments_page_state_created_idx" ON "comments" USING btree ("page_id","state","created_at");--> statement-breakpoint
ALTER TABLE "comment_blocks" ADD CONSTRAINT "comment_blocks_kind_check" CHECK ("comment_blocks"."kind" in ('email', 'ip', 'keyword', 'host', 'actor'));--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_subject_check" CHECK (("comments"."post_id" is null) <> ("comments"."page_id" is null));