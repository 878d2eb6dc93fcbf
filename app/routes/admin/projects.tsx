import { data } from "react-router";
import { requireArea } from "~/features/auth/guards.server";
import { handleAdminForm, type AdminFormContext } from "~/features/admin/admin-form.server";
import { createProject, deleteProject, listProjectsForAdmin, moveProject, updateProject } from "~/features/projects/project-admin.server";
import { ProjectManagement } from "~/features/projects/project-management";
import { projectInputSchema } from "~/features/projects/project-schema";
import { getDb } from "~/server/db/client.server";
import { invalidSubmission } from "~/server/failure-reply.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/projects";

export function meta() {
  return [{ title: "Project Management" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireArea(request, "projects");
  return { projects: await listProjectsForAdmin(getDb()) };
}

export async function action({ request }: Route.ActionArgs) {
  const save = async ({ actor, db, form, parse }: AdminFormContext) => {
    const parsed = parse(projectInputSchema);
    if (parsed.status !== "success") return invalidSubmission(parsed);
    if (form.intent === "create") {
      const created = await createProject(db, actor, form);
      return redirectWithToast("/admin/projects", {
        title: "Project created",
        description: `'${created.title}' was added.`,
        type: "success",
      });
    }
    const updated = await updateProject(db, actor, form.id, form);
    return redirectWithToast("/admin/projects", {
      title: "Project updated",
      description: `'${updated.title}' was saved.`,
      type: "success",
    });
  };
  return handleAdminForm(request, "projects", {
    create: save,
    update: save,
    delete: async ({ actor, db, form }) => {
      const deleted = await deleteProject(db, actor, form.id);
      return redirectWithToast("/admin/projects", {
        title: "Project deleted",
        description: `'${deleted.title}' was removed.`,
        type: "success",
      });
    },
    move: async ({ actor, db, form }) => {
      await moveProject(db, actor, form.id, form.direction);
      return data({ ok: true as const, moved: true as const });
    },
  });
}

export default function ProjectsRoute({ loaderData }: Route.ComponentProps) {
  return <ProjectManagement projects={loaderData.projects} />;
}
