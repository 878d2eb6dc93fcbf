import { sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { moveInList } from "~/lib/reorder";
import { recordAudit, type AuditEntry } from "./audit.server";
import { bumpContentVersion } from "./content-version.server";
import type { Db } from "./db/client.server";
import { appSettings } from "./db/schema.server";
import { NotFoundError } from "./errors.server";

/**
 * The writes shared by the admin's ordered page-content lists (testimonials, recent roles): each one
 * changes public output, so the content version and the audit row go in the write's transaction.
 */

/** One row written (or a NotFoundError with `gone`); `summary` names it in the audit log. */
export async function writeContentRow<T>(
  db: Db,
  audit: Omit<AuditEntry, "summary">,
  gone: string,
  summary: (row: T) => string,
  write: (tx: Db) => Promise<T[]>,
): Promise<T> {
  const [row] = await db.transaction(async (tx) => {
    const rows = await write(tx);
    if (rows[0]) {
      await bumpContentVersion(tx);
      await recordAudit(tx, { ...audit, summary: summary(rows[0]) });
    }
    return rows;
  });
  if (!row) throw new NotFoundError(gone);
  return row;
}

/**
 * A new row at the top of an ordered list (before the lowest display order: the lists read "most
 * recent first", so what the owner adds now belongs there), written with the content version and its
 * audit row (which targets it) in one transaction; `summary` names it in the log.
 */
export async function prependContentRow<T extends { id: string }>(
  db: Db,
  table: PgTable & { displayOrder: AnyPgColumn },
  audit: Omit<AuditEntry, "summary" | "target"> & { targetType: string },
  summary: (row: NoInfer<T>) => string,
  insert: (tx: Db, displayOrder: number) => Promise<T[]>,
): Promise<T> {
  const { targetType, ...entry } = audit;
  return db.transaction(async (tx) => {
    const [min] = await tx.select({ n: sql<number>`coalesce(min(${table.displayOrder}), 1)::int` }).from(table);
    const [created] = await insert(tx, (min?.n ?? 1) - 1);
    if (!created) throw new Error(`${targetType} insert returned no row`);
    await bumpContentVersion(tx);
    await recordAudit(tx, { ...entry, target: { type: targetType, id: created.id }, summary: summary(created) });
    return created;
  });
}

/**
 * Moves `id` one place within `ids` (the list in display order, locked by the caller's select) and
 * renumbers the whole list 0..n-1, so old ties never make a move a no-op. Audited; false when the
 * item is already at that end.
 */
export async function moveContentRow(
  tx: Db,
  options: {
    ids: readonly string[];
    id: string;
    direction: "up" | "down";
    gone: string;
    audit: Omit<AuditEntry, "summary">;
    setOrder: (id: string, displayOrder: number) => Promise<unknown>;
  },
): Promise<boolean> {
  const { ids, id, direction } = options;
  if (!ids.includes(id)) throw new NotFoundError(options.gone);
  const next = moveInList(ids, id, direction);
  if (!next) return false;
  await reorderContentRows(tx, { order: next, audit: { ...options.audit, summary: `moved ${direction}` }, setOrder: options.setOrder });
  return true;
}

/**
 * Gives a whole list a new order (`order`: every id, first to last), numbered 0..n-1, with the content
 * version and the audit row in the caller's transaction.
 */
export async function reorderContentRows(
  tx: Db,
  options: { order: readonly string[]; audit: AuditEntry; setOrder: (id: string, displayOrder: number) => Promise<unknown> },
): Promise<void> {
  for (const [position, rowId] of options.order.entries()) await options.setOrder(rowId, position);
  await bumpContentVersion(tx);
  await recordAudit(tx, options.audit);
}

/**
 * Demo content seeded once per database, and only with SEED_DEMO_CONTENT: the marker row `key` makes a
 * later start (or a second instance) skip it, even after the owner deleted everything it added.
 */
export async function seedDemoOnce(db: Db, seedDemoContent: boolean, key: string, seed: (tx: Db) => Promise<unknown>): Promise<boolean> {
  if (!seedDemoContent) return false;
  return db.transaction(async (tx) => {
    const marked = await tx
      .insert(appSettings)
      .values({ key, value: new Date().toISOString() })
      .onConflictDoNothing()
      .returning({ key: appSettings.key });
    if (marked.length === 0) return false;
    await seed(tx);
    await bumpContentVersion(tx);
    return true;
  });
}
