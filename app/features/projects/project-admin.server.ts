import { asc, eq, sql } from "drizzle-orm";
import { recordAudit } from "~/server/audit.server";
import { bumpContentVersion } from "~/server/content-version.server";
import { canManageProjects, type Actor } from "~/lib/permissions";
import { authorize } from "~/server/authorize.server";
import { type Db, ONE_ROW } from "~/server/db/client.server";
import { projects } from "~/server/db/schema.server";
import { NotFoundError, parseOrThrow as parse } from "~/server/errors.server";
import { moveDirectionSchema, projectIdSchema, projectInputSchema, PROJECTS_FORBIDDEN } from "./project-schema";
import { publicProjectColumns, type PublicProject } from "./projects.server";

/** Project writes for the admin area; each takes the actor and checks canManageProjects itself. */
export interface AdminProject extends PublicProject {
  displayOrder: number;
}

const adminColumns = { ...publicProjectColumns, displayOrder: projects.displayOrder };

/** SPEC §7: select all, ordered by display_order ascending (created_at breaks ties). */
export async function listProjectsForAdmin(db: Db): Promise<AdminProject[]> {
  return db.select(adminColumns).from(projects).orderBy(asc(projects.displayOrder), asc(projects.createdAt));
}

/** How many projects there are, as a scalar subquery (the dashboard reads it with its other counts). */
export function projectCountOf() {
  return sql<number>`(select count(*)::int from ${projects})`.mapWith(Number);
}

export async function countProjects(db: Db): Promise<number> {
  const [row] = await db.select({ n: projectCountOf() }).from(ONE_ROW);
  return row?.n ?? 0;
}

export async function createProject(db: Db, actor: Actor | null, input: unknown): Promise<AdminProject> {
  authorize(actor, canManageProjects, PROJECTS_FORBIDDEN);
  const values = parse(projectInputSchema, input);
  const [max] = await db.select({ n: sql<number>`coalesce(max(${projects.displayOrder}), -1)::int` }).from(projects);
  const [created] = await db.transaction(async (tx) => {
    const rows = await tx
      .insert(projects)
      .values({ ...values, displayOrder: (max?.n ?? -1) + 1 })
      .returning(adminColumns);
    await bumpContentVersion(tx);
    await recordAudit(tx, { actor, action: "project.create", target: { type: "project", id: rows[0]?.id }, summary: values.title });
    return rows;
  });
  if (!created) throw new Error("project insert returned no row");
  return created;
}

export async function updateProject(db: Db, actor: Actor | null, id: unknown, input: unknown): Promise<AdminProject> {
  authorize(actor, canManageProjects, PROJECTS_FORBIDDEN);
  const projectId = parse(projectIdSchema, id);
  const values = parse(projectInputSchema, input);
  const [updated] = await db.transaction(async (tx) => {
    const rows = await tx
      .update(projects)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(projects.id, projectId))
      .returning(adminColumns);
    if (rows.length > 0) {
      await bumpContentVersion(tx);
      await recordAudit(tx, { actor, action: "project.update", target: { type: "project", id: projectId }, summary: values.title });
    }
    return rows;
  });
  if (!updated) throw new NotFoundError("This project no longer exists.");
  return updated;
}

export async function deleteProject(db: Db, actor: Actor | null, id: unknown): Promise<{ title: string }> {
  authorize(actor, canManageProjects, PROJECTS_FORBIDDEN);
  const projectId = parse(projectIdSchema, id);
  const [deleted] = await db.transaction(async (tx) => {
    const rows = await tx.delete(projects).where(eq(projects.id, projectId)).returning({ title: projects.title });
    if (rows[0]) {
      await bumpContentVersion(tx);
      await recordAudit(tx, { actor, action: "project.delete", target: { type: "project", id: projectId }, summary: rows[0].title });
    }
    return rows;
  });
  if (!deleted) throw new NotFoundError("This project no longer exists.");
  return deleted;
}

/**
 * Moves a project one place up or down. Renumbers the whole list (0..n-1) in one transaction, so
 * ties and gaps left by older data or deletions never make a move a no-op.
 */
export async function moveProject(db: Db, actor: Actor | null, id: unknown, direction: unknown): Promise<void> {
  authorize(actor, canManageProjects, PROJECTS_FORBIDDEN);
  const projectId = parse(projectIdSchema, id);
  const dir = parse(moveDirectionSchema, direction);
  await db.transaction(async (tx) => {
    const ordered = await tx
      .select({ id: projects.id, displayOrder: projects.displayOrder })
      .from(projects)
      .orderBy(asc(projects.displayOrder), asc(projects.createdAt))
      .for("update");
    const index = ordered.findIndex((p) => p.id === projectId);
    if (index === -1) throw new NotFoundError("This project no longer exists.");
    const target = dir === "up" ? index - 1 : index + 1;
    if (target < 0 || target >= ordered.length) return;
    const ids = ordered.map((p) => p.id);
    [ids[index], ids[target]] = [ids[target] ?? projectId, ids[index] ?? projectId];
    for (const [position, pid] of ids.entries()) {
      if (ordered[position]?.id === pid && ordered[position]?.displayOrder === position) continue;
      await tx.update(projects).set({ displayOrder: position }).where(eq(projects.id, pid));
    }
    await bumpContentVersion(tx);
    await recordAudit(tx, { actor, action: "project.move", target: { type: "project", id: projectId }, summary: `moved ${dir}` });
  });
}
