import { asc, eq } from "drizzle-orm";
import { canEditPageContent, type Actor } from "~/lib/permissions";
import { authorize } from "~/server/authorize.server";
import { moveContentRow, prependContentRow, reorderContentRows, seedDemoOnce, writeContentRow } from "~/server/content-rows.server";
import type { Db } from "~/server/db/client.server";
import { positions } from "~/server/db/schema.server";
import { parseOrThrow } from "~/server/errors.server";
import { POSITIONS } from "./content";
import { periodKey, sortByPeriod } from "./position-period";
import { positionInputSchema } from "./positions-schema";
import { moveDirectionSchema } from "~/lib/reorder";
import { contentIdSchema, PAGE_CONTENT_FORBIDDEN } from "./testimonials-schema";

/** A job on the Recent Roles timeline ("role" in code means a user's permission role). */
export interface PositionRow {
  id: string;
  title: string;
  company: string;
  period: string;
  location: string;
  description: string;
  bullets: string[];
}

const columns = {
  id: positions.id,
  title: positions.title,
  company: positions.company,
  period: positions.period,
  location: positions.location,
  description: positions.description,
  bullets: positions.bullets,
};

const GONE = "This role no longer exists.";
const label = (row: { title: string; company: string }) => `${row.title}, ${row.company}`;

/** The timeline, in display order (the public page and the admin show the same list). */
export function listPositions(db: Db): Promise<PositionRow[]> {
  return db.select(columns).from(positions).orderBy(asc(positions.displayOrder), asc(positions.createdAt));
}

export async function createPosition(db: Db, actor: Actor | null, input: unknown): Promise<PositionRow> {
  authorize(actor, canEditPageContent, PAGE_CONTENT_FORBIDDEN);
  const values = parseOrThrow(positionInputSchema, input);
  return prependContentRow(db, positions, { actor, action: "position.create", targetType: "position" }, label, (tx, displayOrder) =>
    tx
      .insert(positions)
      .values({ ...values, displayOrder })
      .returning(columns),
  );
}

export async function updatePosition(db: Db, actor: Actor | null, id: unknown, input: unknown): Promise<PositionRow> {
  authorize(actor, canEditPageContent, PAGE_CONTENT_FORBIDDEN);
  const positionId = parseOrThrow(contentIdSchema, id);
  const values = parseOrThrow(positionInputSchema, input);
  const audit = { actor, action: "position.update", target: { type: "position", id: positionId } };
  return writeContentRow(db, audit, GONE, label, (tx) =>
    tx
      .update(positions)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(positions.id, positionId))
      .returning(columns),
  );
}

export async function deletePosition(db: Db, actor: Actor | null, id: unknown): Promise<{ title: string; company: string }> {
  authorize(actor, canEditPageContent, PAGE_CONTENT_FORBIDDEN);
  const positionId = parseOrThrow(contentIdSchema, id);
  const audit = { actor, action: "position.delete", target: { type: "position", id: positionId } };
  return writeContentRow(db, audit, GONE, label, (tx) =>
    tx.delete(positions).where(eq(positions.id, positionId)).returning({ title: positions.title, company: positions.company }),
  );
}

/** One place up or down in the timeline. */
export async function movePosition(db: Db, actor: Actor | null, id: unknown, direction: unknown): Promise<void> {
  authorize(actor, canEditPageContent, PAGE_CONTENT_FORBIDDEN);
  const positionId = parseOrThrow(contentIdSchema, id);
  const dir = parseOrThrow(moveDirectionSchema, direction);
  await db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: positions.id })
      .from(positions)
      .orderBy(asc(positions.displayOrder), asc(positions.createdAt))
      .for("update");
    await moveContentRow(tx, {
      ids: rows.map((row) => row.id),
      id: positionId,
      direction: dir,
      gone: GONE,
      audit: { actor, action: "position.move", target: { type: "position", id: positionId } },
      setOrder: (rowId, displayOrder) => tx.update(positions).set({ displayOrder }).where(eq(positions.id, rowId)),
    });
  });
}

/**
 * "Sort by date": the whole timeline most recent first by each role's period (sortByPeriod); roles
 * whose period cannot be read go after the dated ones, in their order. Audited; returns how many roles
 * have a period it could not read, so the screen can say so.
 */
export async function sortPositionsByDate(db: Db, actor: Actor | null): Promise<{ unread: number }> {
  authorize(actor, canEditPageContent, PAGE_CONTENT_FORBIDDEN);
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: positions.id, period: positions.period })
      .from(positions)
      .orderBy(asc(positions.displayOrder), asc(positions.createdAt))
      .for("update");
    const sorted = sortByPeriod(rows);
    const unread = rows.filter((row) => periodKey(row.period) === null).length;
    await reorderContentRows(tx, {
      order: sorted.map((row) => row.id),
      audit: { actor, action: "position.sort", target: { type: "position" }, summary: "sorted by date" },
      setOrder: (rowId, displayOrder) => tx.update(positions).set({ displayOrder }).where(eq(positions.id, rowId)),
    });
    return { unread };
  });
}

/** The four demo roles (SPEC §2), once per database and only with SEED_DEMO_CONTENT. */
export function seedDemoPositions(db: Db, seedDemoContent: boolean): Promise<boolean> {
  return seedDemoOnce(db, seedDemoContent, "seeded_positions", (tx) =>
    tx.insert(positions).values(
      POSITIONS.map((p, index) => ({
        title: p.title,
        company: p.company,
        period: p.period ?? "",
        location: p.location ?? "",
        description: p.description,
        bullets: [...(p.bullets ?? [])],
        displayOrder: index,
      })),
    ),
  );
}
