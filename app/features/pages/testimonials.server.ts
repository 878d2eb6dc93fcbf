import { asc, eq } from "drizzle-orm";
import { canEditPageContent, type Actor } from "~/lib/permissions";
import { authorize } from "~/server/authorize.server";
import type { AuditEntry } from "~/server/audit.server";
import { prependContentRow, moveContentRow, seedDemoOnce, writeContentRow } from "~/server/content-rows.server";
import type { Db } from "~/server/db/client.server";
import { testimonials } from "~/server/db/schema.server";
import { parseOrThrow } from "~/server/errors.server";
import { TESTIMONIALS } from "./content";
import { moveDirectionSchema } from "~/lib/reorder";
import { contentIdSchema, hiddenSchema, testimonialInputSchema, PAGE_CONTENT_FORBIDDEN } from "./testimonials-schema";

export interface TestimonialRow {
  id: string;
  name: string;
  position: string;
  company: string | null;
  date: string;
  text: string;
  hidden: boolean;
}

const columns = {
  id: testimonials.id,
  name: testimonials.name,
  position: testimonials.position,
  company: testimonials.company,
  date: testimonials.date,
  text: testimonials.text,
  hidden: testimonials.hidden,
};

const ordered = [asc(testimonials.displayOrder), asc(testimonials.createdAt)] as const;

/** The public page's cards: visible ones, in order. */
export function listVisibleTestimonials(db: Db): Promise<TestimonialRow[]> {
  return db
    .select(columns)
    .from(testimonials)
    .where(eq(testimonials.hidden, false))
    .orderBy(...ordered);
}

export function listTestimonialsForAdmin(db: Db): Promise<TestimonialRow[]> {
  return db
    .select(columns)
    .from(testimonials)
    .orderBy(...ordered);
}

function values(input: unknown) {
  const parsed = parseOrThrow(testimonialInputSchema, input);
  return { ...parsed, company: parsed.company || null };
}

export async function createTestimonial(db: Db, actor: Actor | null, input: unknown): Promise<TestimonialRow> {
  authorize(actor, canEditPageContent, PAGE_CONTENT_FORBIDDEN);
  const row = values(input);
  return prependContentRow(
    db,
    testimonials,
    { actor, action: "testimonial.create", targetType: "testimonial" },
    (r) => r.name,
    (tx, displayOrder) =>
      tx
        .insert(testimonials)
        .values({ ...row, displayOrder })
        .returning(columns),
  );
}

const GONE = "This testimonial no longer exists.";

/** One testimonial changed (or a NotFoundError): the content version and the audit row in the same transaction. */
function writeOne<T extends { name: string }>(db: Db, audit: Omit<AuditEntry, "summary">, write: (tx: Db) => Promise<T[]>): Promise<T> {
  return writeContentRow(db, audit, GONE, (row) => row.name, write);
}

export async function updateTestimonial(db: Db, actor: Actor | null, id: unknown, input: unknown): Promise<TestimonialRow> {
  authorize(actor, canEditPageContent, PAGE_CONTENT_FORBIDDEN);
  const testimonialId = parseOrThrow(contentIdSchema, id);
  const row = values(input);
  const target = { type: "testimonial", id: testimonialId };
  return writeOne(db, { actor, action: "testimonial.update", target }, (tx) =>
    tx
      .update(testimonials)
      .set({ ...row, updatedAt: new Date() })
      .where(eq(testimonials.id, testimonialId))
      .returning(columns),
  );
}

export async function setTestimonialHidden(db: Db, actor: Actor | null, id: unknown, hidden: unknown): Promise<TestimonialRow> {
  authorize(actor, canEditPageContent, PAGE_CONTENT_FORBIDDEN);
  const testimonialId = parseOrThrow(contentIdSchema, id);
  const value = parseOrThrow(hiddenSchema, hidden);
  const target = { type: "testimonial", id: testimonialId };
  return writeOne(db, { actor, action: value ? "testimonial.hide" : "testimonial.show", target }, (tx) =>
    tx.update(testimonials).set({ hidden: value, updatedAt: new Date() }).where(eq(testimonials.id, testimonialId)).returning(columns),
  );
}

export async function deleteTestimonial(db: Db, actor: Actor | null, id: unknown): Promise<{ name: string }> {
  authorize(actor, canEditPageContent, PAGE_CONTENT_FORBIDDEN);
  const testimonialId = parseOrThrow(contentIdSchema, id);
  const target = { type: "testimonial", id: testimonialId };
  return writeOne(db, { actor, action: "testimonial.delete", target }, (tx) =>
    tx.delete(testimonials).where(eq(testimonials.id, testimonialId)).returning({ name: testimonials.name }),
  );
}

/** One place up or down; the whole list is renumbered 0..n-1 so old ties never make a move a no-op. */
export async function moveTestimonial(db: Db, actor: Actor | null, id: unknown, direction: unknown): Promise<void> {
  authorize(actor, canEditPageContent, PAGE_CONTENT_FORBIDDEN);
  const testimonialId = parseOrThrow(contentIdSchema, id);
  const dir = parseOrThrow(moveDirectionSchema, direction);
  await db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: testimonials.id })
      .from(testimonials)
      .orderBy(...ordered)
      .for("update");
    await moveContentRow(tx, {
      ids: rows.map((r) => r.id),
      id: testimonialId,
      direction: dir,
      gone: GONE,
      audit: { actor, action: "testimonial.move", target: { type: "testimonial", id: testimonialId } },
      setOrder: (rowId, displayOrder) => tx.update(testimonials).set({ displayOrder }).where(eq(testimonials.id, rowId)),
    });
  });
}

const SEEDED_KEY = "seeded_testimonials";

/** The nine demo testimonials (SPEC §2), once per database and only with SEED_DEMO_CONTENT. */
export function seedDemoTestimonials(db: Db, seedDemoContent: boolean): Promise<boolean> {
  return seedDemoOnce(db, seedDemoContent, SEEDED_KEY, (tx) =>
    tx.insert(testimonials).values(
      TESTIMONIALS.map((t, index) => ({
        name: t.name,
        position: t.position,
        company: t.company ?? null,
        date: t.date,
        text: t.text,
        displayOrder: index,
      })),
    ),
  );
}
