import { eq } from "drizzle-orm";
import { canManageProjects, type Actor } from "~/lib/permissions";
import type { ProjectRecord } from "~/lib/project-types";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import { bumpContentVersion } from "~/server/content-version.server";
import type { Db } from "~/server/db/client.server";
import { projects } from "~/server/db/schema.server";
import { NotFoundError } from "~/server/errors.server";
import { PROJECTS_FORBIDDEN } from "./project-schema";

/** A project brought in from another system: it keeps its place in the list and its creation date. */
export interface ImportedProject extends ProjectRecord {
  displayOrder: number;
  createdAt: Date;
}

/** Creates (`projectId` null) or updates an imported project; `after` runs in the same transaction. */
export async function writeImportedProject(
  db: Db,
  actor: Actor | null,
  projectId: string | null,
  project: ImportedProject,
  after: (tx: Db, projectId: string) => Promise<void>,
): Promise<string> {
  authorize(actor, canManageProjects, PROJECTS_FORBIDDEN);
  return db.transaction(async (tx) => {
    const [row] = projectId
      ? await tx
          .update(projects)
          .set({ ...project, updatedAt: new Date() })
          .where(eq(projects.id, projectId))
          .returning({ id: projects.id })
      : await tx.insert(projects).values(project).returning({ id: projects.id });
    if (!row) throw new NotFoundError("This project no longer exists.");
    await after(tx, row.id);
    await bumpContentVersion(tx);
    await recordAudit(tx, { actor, action: "project.import", target: { type: "project", id: row.id }, summary: project.title });
    return row.id;
  });
}

export async function projectExists(db: Db, projectId: string): Promise<boolean> {
  const [row] = await db.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).limit(1);
  return row !== undefined;
}
