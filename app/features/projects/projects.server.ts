import { asc, desc, eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { projects } from "~/server/db/schema.server";
import type { ProjectRecord } from "~/lib/project-types";

export interface PublicProject extends ProjectRecord {
  id: string;
}

export const publicProjectColumns = {
  id: projects.id,
  title: projects.title,
  description: projects.description,
  imageUrl: projects.imageUrl,
  type: projects.type,
  url: projects.url,
  featured: projects.featured,
};

/** Every project, in the owner's display order (SPEC §7 "projects page"). */
export function listProjects(db: Db): Promise<PublicProject[]> {
  return db.select(publicProjectColumns).from(projects).orderBy(asc(projects.displayOrder), asc(projects.createdAt));
}

/** The one web project for the home page: featured first, then newest. */
export async function getFeaturedWebProject(db: Db): Promise<PublicProject | null> {
  const [project] = await db
    .select(publicProjectColumns)
    .from(projects)
    .where(eq(projects.type, "web"))
    .orderBy(desc(projects.featured), desc(projects.createdAt))
    .limit(1);
  return project ?? null;
}
