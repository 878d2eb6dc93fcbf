import { and, count, desc, eq, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { canViewAuditLog, type Actor } from "~/lib/permissions";
import { authorize } from "./authorize.server";
import type { Db } from "./db/client.server";
import { auditLog, user } from "./db/schema.server";
import { getEnv } from "./env.server";
import { defineRecurringTask } from "./jobs/recurring.server";
import { parseOrThrow } from "./errors.server";
import { logger } from "./logger.server";
import { pageWindow, type PageWindow } from "./pagination.server";

/**
 * THE audit trail (docs/decisions/0027-audit-log.md). Call `recordAudit(tx, …)` inside the transaction
 * of every staff write, so the row exists exactly when the write does.
 */

/** Who acted. A SessionUser (from getSessionUser) carries its email and IP, so the actor alone usually says it all. */
export interface AuditActor {
  id: string;
  email?: string;
  ip?: string | null;
}

export interface AuditEntry {
  /** null for the operator (CLI) or an unknown person (a failed sign-in). */
  actor: AuditActor | null;
  /** Dotted, lower case: "post.create", "auth.sign-in.failed", "account.totp.enable"… */
  action: string;
  target?: { type: string; id?: string | null };
  /** One human line: what changed ("Title: Hello", "granted admin to jane@…"). Never secrets. */
  summary?: string;
  /** Overrides the actor's IP (e.g. a failed sign-in, which has no actor). */
  ip?: string | null;
  /** The email tried when there is no actor (a failed sign-in). */
  email?: string;
}

const ACTION = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)*$/;
const SUMMARY_MAX = 500;

export async function recordAudit(tx: Db, entry: AuditEntry): Promise<void> {
  if (!ACTION.test(entry.action)) throw new Error(`Invalid audit action "${entry.action}"`);
  const actor = entry.actor;
  const actorEmail = actor?.email ?? entry.email ?? null;
  await tx.insert(auditLog).values({
    actorId: actor?.id ?? null,
    // The email as it is now, looked up in the same statement when the caller only has the id.
    actorEmail: actorEmail ?? (actor ? sql`(select ${user.email} from ${user} where ${user.id} = ${actor.id})` : null),
    action: entry.action,
    targetType: entry.target?.type ?? null,
    targetId: entry.target?.id ?? null,
    summary: (entry.summary ?? "").slice(0, SUMMARY_MAX),
    ip: entry.ip ?? actor?.ip ?? null,
  });
}

export const AUDIT_PER_PAGE = 50;

const AUDIT_COLUMNS = {
  id: auditLog.id,
  createdAt: auditLog.createdAt,
  actorEmail: auditLog.actorEmail,
  action: auditLog.action,
  targetType: auditLog.targetType,
  targetId: auditLog.targetId,
  summary: auditLog.summary,
  ip: auditLog.ip,
};

export const AUDIT_FORBIDDEN = "Only administrators can read the audit log.";

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** The /admin/audit filters, as they arrive in the query string. */
export const auditFilterSchema = z.object({
  actor: z.preprocess(emptyToUndefined, z.string().trim().max(320, "That email is too long.").optional()),
  action: z.preprocess(emptyToUndefined, z.string().trim().regex(ACTION, "Unknown action.").max(100, "Unknown action.").optional()),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export interface AuditRow {
  id: number;
  createdAt: Date;
  actorEmail: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  summary: string;
  ip: string | null;
}

/** Newest first; `actor` matches the email exactly (case-insensitive), `action` the action or its prefix ("post" → post.*). */
export async function listAudit(
  db: Db,
  actor: Actor | null,
  rawFilter: unknown,
  page: number,
): Promise<PageWindow & { rows: AuditRow[]; total: number; actions: string[]; filter: AuditFilter }> {
  authorize(actor, canViewAuditLog, AUDIT_FORBIDDEN);
  const filter = parseOrThrow(auditFilterSchema, rawFilter);
  const conditions = [];
  if (filter.actor) conditions.push(sql`lower(${auditLog.actorEmail}) = ${filter.actor.toLowerCase()}`);
  if (filter.action)
    conditions.push(
      sql`(${auditLog.action} = ${filter.action} or ${auditLog.action} like ${`${filter.action.replace(/[\\%_]/g, "\\$&")}.%`})`,
    );
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [counted] = await db.select({ n: count() }).from(auditLog).where(where);
  const total = counted?.n ?? 0;
  const window = pageWindow(total, page, AUDIT_PER_PAGE);
  const rows = await db
    .select(AUDIT_COLUMNS)
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.id))
    .limit(window.limit)
    .offset(window.offset);
  const actions = (await db.selectDistinct({ action: auditLog.action }).from(auditLog).orderBy(auditLog.action)).map((r) => r.action);
  return { ...window, rows, total, actions, filter };
}

/** Deletes entries older than AUDIT_RETENTION_DAYS; returns how many went. */
export async function pruneAudit(db: Db, retentionDays = getEnv().AUDIT_RETENTION_DAYS): Promise<number> {
  const deleted = await db
    .delete(auditLog)
    .where(lt(auditLog.createdAt, sql`now() - make_interval(days => ${retentionDays})`))
    .returning({ id: auditLog.id });
  return deleted.length;
}

export const pruneAuditTask = defineRecurringTask(
  "audit.prune",
  6 * 3_600_000,
  async ({ db }) => {
    const n = await pruneAudit(db);
    if (n > 0) logger.info({ deleted: n }, "old audit entries pruned");
  },
  { firstRunDelayMs: 60_000 },
);

/** For tests and the account page: the latest entries of one actor. */
export async function auditOf(db: Db, actorId: string, limit = 20): Promise<AuditRow[]> {
  return db.select(AUDIT_COLUMNS).from(auditLog).where(eq(auditLog.actorId, actorId)).orderBy(desc(auditLog.id)).limit(limit);
}
