import { asc, eq, sql } from "drizzle-orm";
import { canManageProjects, type Actor } from "~/lib/permissions";
import { moveDirectionSchema } from "~/lib/reorder";
import { authorize } from "~/server/authorize.server";
import { prependContentRow, moveContentRow, writeContentRow } from "~/server/content-rows.server";
import { type Db, ONE_ROW } from "~/server/db/client.server";
import { projects } from "~/server/db/schema.server";
import { parseOrThrow as parse } from "~/server/errors.server";
import { projectIdSchema, projectInputSchema, PROJECTS_FORBIDDEN } from "./project-schema";
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

const GONE = "This project no longer exists.";
const titleOf = (row: { title: string }) => row.title;

export async function createProject(db: Db, actor: Actor | null, input: unknown): Promise<AdminProject> {
  authorize(actor, canManageProjects, PROJECTS_FORBIDDEN);
  const values = parse(projectInputSchema, input);
  return prependContentRow(db, projects, { actor, action: "project.create", targetType: "project" }, titleOf, (tx, displayOrder) =>
    tx
      .insert(projects)
      .values({ ...values, displayOrder })
      .returning(adminColumns),
  );
}

export async function updateProject(db: Db, actor: Actor | null, id: unknown, input: unknown): Promise<AdminProject> {
  authorize(actor, canManageProjects, PROJECTS_FORBIDDEN);
  const projectId = parse(projectIdSchema, id);
  const values = parse(projectInputSchema, input);
  const audit = { actor, action: "project.update", target: { type: "project", id: projectId } };
  return writeContentRow(db, audit, GONE, titleOf, (tx) =>
    tx
      .update(projects)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(projects.id, projectId))
      .returning(adminColumns),
  );
}

export async function deleteProject(db: Db, actor: Actor | null, id: unknown): Promise<{ title: string }> {
  authorize(actor, canManageProjects, PROJECTS_FORBIDDEN);
  const projectId = parse(projectIdSchema, id);
  const audit = { actor, action: "project.delete", target: { type: "project", id: projectId } };
  return writeContentRow(db, audit, GONE, titleOf, (tx) =>
    tx.delete(projects).where(eq(projects.id, projectId)).returning({ title: projects.title }),
  );
}

/** One place up or down in the owner's display order. */
export async function moveProject(db: Db, actor: Actor | null, id: unknown, direction: unknown): Promise<void> {
  authorize(actor, canManageProjects, PROJECTS_FORBIDDEN);
  const projectId = parse(projectIdSchema, id);
  const dir = parse(moveDirectionSchema, direction);
  await db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: projects.id })
      .from(projects)
      .orderBy(asc(projects.displayOrder), asc(projects.createdAt))
      .for("update");
    await moveContentRow(tx, {
      ids: rows.map((row) => row.id),
      id: projectId,
      direction: dir,
      gone: GONE,
      audit: { actor, action: "project.move", target: { type: "project", id: projectId } },
      setOrder: (rowId, displayOrder) => tx.update(projects).set({ displayOrder }).where(eq(projects.id, rowId)),
    });
  });
}
