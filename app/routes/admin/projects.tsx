import { ArrowDown, ArrowUp, ExternalLink, Pencil, Plus, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { data, Form, Link, useActionData, useFetcher, useNavigation, useSearchParams } from "react-router";
import { toast } from "sonner";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "~/components/ui/alert-dialog";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { actionFailure, requireActor } from "~/features/admin/admin-guard.server";
import { getSessionUser } from "~/features/auth/session.server";
import {
  createProject,
  deleteProject,
  listProjectsForAdmin,
  moveProject,
  updateProject,
  type AdminProject,
} from "~/features/projects/project-admin.server";
import { PROJECT_TYPE_LABELS, PROJECT_TYPE_VALUES, PROJECTS_FORBIDDEN } from "~/features/projects/project-schema";
import { canManageProjects } from "~/lib/permissions";
import { getDb } from "~/server/db/client.server";
import { ValidationError, withRouteErrors } from "~/server/errors.server";
import { redirectWithToast } from "~/server/toast.server";
import { readForm } from "~/server/form.server";
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
  const form = Object.fromEntries(await withRouteErrors(() => readForm(request)));
  const db = getDb();
  try {
    switch (form.intent) {
      case "create": {
        const created = await createProject(db, actor, form);
        return await redirectWithToast("/admin/projects", { title: "Project created", description: `'${created.title}' was added.`, type: "success" });
      }
      case "update": {
        const updated = await updateProject(db, actor, form.id, form);
        return await redirectWithToast("/admin/projects", { title: "Project updated", description: `'${updated.title}' was saved.`, type: "success" });
      }
      case "delete": {
        const deleted = await deleteProject(db, actor, form.id);
        return await redirectWithToast("/admin/projects", { title: "Project deleted", description: `'${deleted.title}' was removed.`, type: "success" });
      }
      case "move":
        await moveProject(db, actor, form.id, form.direction);
        return data({ ok: true as const, moved: true });
      default:
        return actionFailure(new ValidationError("Unknown action."));
    }
  } catch (error) {
    return actionFailure(error);
  }
}

export default function ProjectManagement({ loaderData }: Route.ComponentProps) {
  const { projects } = loaderData;
  const [searchParams] = useSearchParams();
  const editId = searchParams.get("edit");
  const editing = editId ? projects.find((p) => p.id === editId) : undefined;
  const showForm = searchParams.has("new") || Boolean(editing);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Project Management</h1>
          <p className="mt-2 text-muted-foreground">Add, edit, reorder and remove the projects shown on the site.</p>
        </div>
        {!showForm ? (
          <Button asChild>
            <Link to="?new">
              <Plus aria-hidden />
              Add Project
            </Link>
          </Button>
        ) : null}
      </div>
      {showForm ? <ProjectForm key={editing?.id ?? "new"} project={editing} /> : null}
      {projects.length === 0 ? (
        <p className="text-muted-foreground">No projects found. Add your first project to get started!</p>
      ) : (
        <ol className="flex flex-col gap-3" aria-label="Projects in display order">
          {projects.map((project, index) => (
            <ProjectRow key={project.id} project={project} first={index === 0} last={index === projects.length - 1} />
          ))}
        </ol>
      )}
    </div>
  );
}

function ProjectRow({ project, first, last }: { project: AdminProject; first: boolean; last: boolean }) {
  const mover = useFetcher<typeof action>();
  const upRef = useRef<HTMLButtonElement>(null);
  const downRef = useRef<HTMLButtonElement>(null);
  const lastDirection = useRef<"up" | "down" | null>(null);

  // Keep keyboard focus on the moved project's button after the list re-renders in its new order.
  useEffect(() => {
    if (mover.state !== "idle" || !lastDirection.current) return;
    const preferred = lastDirection.current === "up" ? upRef.current : downRef.current;
    const fallback = lastDirection.current === "up" ? downRef.current : upRef.current;
    (preferred && !preferred.disabled ? preferred : fallback)?.focus();
    lastDirection.current = null;
    if (mover.data && !mover.data.ok) toast.error("Error", { description: mover.data.error });
  }, [mover.state, mover.data]);

  const moving = mover.state !== "idle";
  return (
    <li>
      <Card className="gap-3 py-4">
        <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2 px-4">
          <div className="flex flex-wrap items-center gap-2">
            <CardTitle>
              <h2 className="text-lg">{project.title}</h2>
            </CardTitle>
            {project.featured ? <Badge>Featured</Badge> : null}
            <Badge variant="outline">{PROJECT_TYPE_LABELS[project.type]}</Badge>
          </div>
          <div className="flex flex-wrap items-center gap-1">
            <mover.Form method="post" className="contents">
              <input type="hidden" name="intent" value="move" />
              <input type="hidden" name="id" value={project.id} />
              <Button
                ref={upRef}
                type="submit"
                name="direction"
                value="up"
                variant="ghost"
                size="icon"
                disabled={first || moving}
                aria-label={`Move ${project.title} up`}
                onClick={() => (lastDirection.current = "up")}
              >
                <ArrowUp aria-hidden />
              </Button>
              <Button
                ref={downRef}
                type="submit"
                name="direction"
                value="down"
                variant="ghost"
                size="icon"
                disabled={last || moving}
                aria-label={`Move ${project.title} down`}
                onClick={() => (lastDirection.current = "down")}
              >
                <ArrowDown aria-hidden />
              </Button>
            </mover.Form>
            <Button asChild variant="outline" size="sm">
              <Link to={`?edit=${project.id}`} aria-label={`Edit ${project.title}`}>
                <Pencil aria-hidden />
                Edit
              </Link>
            </Button>
            <DeleteProjectButton project={project} />
          </div>
        </CardHeader>
        <CardContent className="flex flex-col gap-2 px-4">
          {project.description ? <p className="text-sm text-muted-foreground">{project.description}</p> : null}
          {project.url ? (
            <a
              href={project.url}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline"
            >
              View Live
              <ExternalLink className="size-3" aria-hidden />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          ) : null}
        </CardContent>
      </Card>
    </li>
  );
}

function DeleteProjectButton({ project }: { project: AdminProject }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("id") === project.id;
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="destructive" size="sm" aria-label={`Delete ${project.title}`}>
          <Trash2 aria-hidden />
          Delete
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete this project?</AlertDialogTitle>
          <AlertDialogDescription>
            &lsquo;{project.title}&rsquo; will be removed from the site. This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <Form method="post">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={project.id} />
            <Button type="submit" variant="destructive" disabled={busy} className="w-full">
              {busy ? "Deleting..." : "Delete Project"}
            </Button>
          </Form>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

function ProjectForm({ project }: { project?: AdminProject }) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") !== "move";
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const fieldErrors = failure?.fieldErrors;
  const [announced, setAnnounced] = useState<unknown>(null);

  useEffect(() => {
    if (failure && failure !== announced) {
      toast.error("Error", { description: failure.error });
      setAnnounced(failure);
    }
  }, [failure, announced]);

  const fieldError = (name: string) => fieldErrors?.[name]?.[0];
  const describedBy = (name: string) => (fieldError(name) ? `${name}-error` : undefined);
  const errorText = (name: string) =>
    fieldError(name) ? (
      <p id={`${name}-error`} className="text-sm text-destructive">
        {fieldError(name)}
      </p>
    ) : null;

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">{project ? `Edit Project - ${project.title}` : "Add Project"}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-4" noValidate>
          <input type="hidden" name="intent" value={project ? "update" : "create"} />
          {project ? <input type="hidden" name="id" value={project.id} /> : null}
          {failure ? (
            <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">
              {failure.error}
            </p>
          ) : null}
          <div className="grid gap-2">
            <Label htmlFor="title">Title</Label>
            <Input id="title" name="title" required maxLength={200} defaultValue={project?.title} aria-invalid={Boolean(fieldError("title"))} aria-describedby={describedBy("title")} />
            {errorText("title")}
          </div>
          <div className="grid gap-2">
            <Label htmlFor="description">Description</Label>
            <Textarea id="description" name="description" rows={3} maxLength={2000} defaultValue={project?.description} aria-invalid={Boolean(fieldError("description"))} aria-describedby={describedBy("description")} />
            {errorText("description")}
          </div>
          <div className="grid gap-2">
            <Label htmlFor="imageUrl">Image URL (optional)</Label>
            <Input id="imageUrl" name="imageUrl" type="url" placeholder="https://…" defaultValue={project?.imageUrl ?? ""} aria-invalid={Boolean(fieldError("imageUrl"))} aria-describedby={describedBy("imageUrl")} />
            {errorText("imageUrl")}
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-2">
              <Label htmlFor="type">Type</Label>
              <select
                id="type"
                name="type"
                defaultValue={project?.type ?? "web"}
                className="h-9 rounded-md border border-input bg-transparent px-3 text-sm shadow-xs focus-visible:ring-[3px] focus-visible:ring-ring/50"
                aria-invalid={Boolean(fieldError("type"))}
                aria-describedby={describedBy("type")}
              >
                {PROJECT_TYPE_VALUES.map((value) => (
                  <option key={value} value={value}>
                    {PROJECT_TYPE_LABELS[value]}
                  </option>
                ))}
              </select>
              {errorText("type")}
            </div>
            <div className="grid gap-2">
              <Label htmlFor="url">Project URL (optional)</Label>
              <Input id="url" name="url" type="url" placeholder="https://…" defaultValue={project?.url ?? ""} aria-invalid={Boolean(fieldError("url"))} aria-describedby={describedBy("url")} />
              {errorText("url")}
            </div>
          </div>
          <div className="flex items-center gap-2">
            <input id="featured" name="featured" type="checkbox" defaultChecked={project?.featured} className="size-4 accent-(--primary)" />
            <Label htmlFor="featured">Featured</Label>
          </div>
          <div className="flex gap-2">
            <Button type="submit" disabled={saving}>
              {saving ? "Saving..." : project ? "Update Project" : "Create Project"}
            </Button>
            <Button asChild variant="outline">
              <Link to="/admin/projects">Cancel</Link>
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
