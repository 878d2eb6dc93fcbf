CREATE TABLE "booking_slot_stamp" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"stamp" uuid DEFAULT gen_random_uuid() NOT NULL,
	CONSTRAINT "booking_slot_stamp_single_row" CHECK ("booking_slot_stamp"."id" = 1)
);
--> statement-breakpoint
-- Every statement that writes what the offered slots are computed from gives the stamp a new random
-- value in the writing transaction (docs/decisions/0082-slot-cache.md): a cache keyed on it is never
-- served after a write commits, whoever wrote (the app, a restore, a script). Random rather than a
-- counter, so a stamp never comes back (a counter would restart after a restore). One row, upserted:
-- writers lock it before the content version (bumped last), so two writers never wait on each other
-- in opposite orders.
CREATE FUNCTION "booking_slot_stamp_renew"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "booking_slot_stamp" ("id", "stamp") VALUES (1, gen_random_uuid())
  ON CONFLICT ("id") DO UPDATE SET "stamp" = excluded."stamp";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "booking_call_types_slot_stamp" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "booking_call_types"
  FOR EACH STATEMENT EXECUTE FUNCTION "booking_slot_stamp_renew"();--> statement-breakpoint
CREATE TRIGGER "booking_weekly_hours_slot_stamp" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "booking_weekly_hours"
  FOR EACH STATEMENT EXECUTE FUNCTION "booking_slot_stamp_renew"();--> statement-breakpoint
CREATE TRIGGER "booking_date_overrides_slot_stamp" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "booking_date_overrides"
  FOR EACH STATEMENT EXECUTE FUNCTION "booking_slot_stamp_renew"();--> statement-breakpoint
CREATE TRIGGER "bookings_slot_stamp" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "bookings"
  FOR EACH STATEMENT EXECUTE FUNCTION "booking_slot_stamp_renew"();--> statement-breakpoint
CREATE TRIGGER "booking_busy_times_slot_stamp" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "booking_busy_times"
  FOR EACH STATEMENT EXECUTE FUNCTION "booking_slot_stamp_renew"();--> statement-breakpoint
INSERT INTO "booking_slot_stamp" ("id") VALUES (1);
