-- No two confirmed bookings may overlap, buffers included: the database refuses the second one
-- (SQLSTATE 23P01), so concurrent requests for one time can never both succeed. A range's own GiST
-- operator class needs no extension (the site has one owner, so no btree_gist column is needed).
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_no_overlap"
  EXCLUDE USING gist (tstzrange("blocked_from", "blocked_until", '[)') WITH &&) WHERE ("status" = 'confirmed');
