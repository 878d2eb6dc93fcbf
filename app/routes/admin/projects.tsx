import { data } from "react-router";
import { adminFormFailure, requireActor } from "~/features/admin/admin-guard.server";
import { getSessionUser } from "~/features/auth/session.server";
import { createProject, deleteProject, listProjectsForAdmin, moveProject, updateProject } from "~/features/projects/project-admin.server";
import { ProjectManagement } from "~/features/projects/project-management";
import { projectInputSchema, PROJECTS_FORBIDDEN } from "~/features/projects/project-schema";
import { parseSubmission, type Submission } from "~/lib/forms";
import { canManageProjects } from "~/lib/permissions";
import { getDb } from "~/server/db/client.server";
import { ValidationError, withRouteErrors } from "~/server/errors.server";
import { readForm } from "~/server/form.server";
import { invalidSubmission } from "~/server/form-reply.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/projects";

export function meta() {
  return [{ title: "Project Management" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireActor(request, canManageProjects, PROJECTS_FORBIDDEN);
  return { projects: await listProjectsForAdmin(getDb()) };
}

export async function action({ request }: Route.ActionArgs) {
  const actor = await getSessionUser(request);
  const formData = await withRouteErrors(() => readForm(request));
  const form = Object.fromEntries(formData);
  const db = getDb();
  let submission: Submission<unknown> | undefined;
  try {
    switch (form.intent) {
      case "create":
      case "update": {
        const parsed = parseSubmission(formData, projectInputSchema);
        submission = parsed;
        if (parsed.status !== "success") return invalidSubmission(parsed);
        if (form.intent === "create") {
          const created = await createProject(db, actor, form);
          return await redirectWithToast("/admin/projects", { title: "Project created", description: `'${created.title}' was added.`, type: "success" });
        }
        const updated = await updateProject(db, actor, form.id, form);
        return await redirectWithToast("/admin/projects", { title: "Project updated", description: `'${updated.title}' was saved.`, type: "success" });
      }
      case "delete": {
        const deleted = await deleteProject(db, actor, form.id);
        return await redirectWithToast("/admin/projects", { title: "Project deleted", description: `'${deleted.title}' was removed.`, type: "success" });
      }
      case "move":
        await moveProject(db, actor, form.id, form.direction);
        return data({ ok: true as const, moved: true as const });
      default:
        throw new ValidationError("Unknown action.");
    }
  } catch (error) {
    return adminFormFailure(error, submission);
  }
}

export default function ProjectsRoute({ loaderData }: Route.ComponentProps) {
  return <ProjectManagement projects={loaderData.projects} />;
}
