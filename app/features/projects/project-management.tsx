import { ArrowDown, ArrowUp, ExternalLink } from "lucide-react";
import { useEffect, useRef } from "react";
import { useActionData, useFetcher, useSearchParams } from "react-router";
import { toast } from "~/components/toaster";
import { AdminListPage, DeleteConfirm, EditLink, FormCard } from "~/components/admin-list";
import { FormField, useSchemaForm } from "~/components/forms";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { UploadUrlInput } from "~/components/upload-url-input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import type { FormFailure } from "~/lib/forms";
import type { AdminProject } from "./project-admin.server";
import { PROJECT_TYPE_LABELS, PROJECT_TYPES } from "~/lib/project-types";
import { projectInputSchema } from "./project-schema";

/** What the /admin/projects action answers: a move's success, or a failure with Conform's reply. */
type ProjectActionData = { ok: true; moved: true } | FormFailure;

/** SPEC §2 Project management: the list in display order, and the add/edit form. */
export function ProjectManagement({ projects }: { projects: AdminProject[] }) {
  const [searchParams] = useSearchParams();
  const editId = searchParams.get("edit");
  const editing = editId ? projects.find((p) => p.id === editId) : undefined;
  const showForm = searchParams.has("new") || Boolean(editing);

  return (
    <AdminListPage
      title="Project Management"
      description="Add, edit, reorder and remove the projects shown on the site."
      addLabel="Add Project"
      form={showForm ? <ProjectForm key={editing?.id ?? "new"} project={editing} /> : null}
      empty={projects.length === 0}
      emptyText="No projects found. Add your first project to get started!"
      listLabel="Projects in display order"
    >
      {projects.map((project, index) => (
        <ProjectRow key={project.id} project={project} first={index === 0} last={index === projects.length - 1} />
      ))}
    </AdminListPage>
  );
}

function ProjectRow({ project, first, last }: { project: AdminProject; first: boolean; last: boolean }) {
  const mover = useFetcher<ProjectActionData>();
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
            <EditLink id={project.id} name={project.title} />
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
  return (
    <DeleteConfirm
      id={project.id}
      name={project.title}
      title="Delete this project?"
      description={<>&lsquo;{project.title}&rsquo; will be removed from the site. This cannot be undone.</>}
      confirmLabel="Delete Project"
    />
  );
}

function ProjectForm({ project }: { project?: AdminProject }) {
  const actionData = useActionData<ProjectActionData>();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const [form, fields] = useSchemaForm({
    id: "project",
    schema: projectInputSchema,
    lastResult: failure?.result,
    defaultValue: {
      title: project?.title ?? "",
      description: project?.description ?? "",
      imageUrl: project?.imageUrl ?? "",
      type: project?.type ?? "web",
      url: project?.url ?? "",
      featured: project?.featured ? "on" : undefined,
    },
  });

  return (
    <FormCard
      heading={project ? `Edit Project - ${project.title}` : "Add Project"}
      form={form}
      failure={failure}
      editId={project?.id}
      submitLabel={project ? "Update Project" : "Create Project"}
      cancelTo="/admin/projects"
    >
      <FormField field={fields.title} label="Title">
        {(props) => <Input {...props} />}
      </FormField>
      <FormField field={fields.description} label="Description">
        {(props) => <Textarea {...props} rows={3} />}
      </FormField>
      <FormField field={fields.imageUrl} label="Image URL (optional)" controlled>
        {(props) => (
          <UploadUrlInput {...props} defaultValue={fields.imageUrl.initialValue ?? ""} label="Image" hint="Save the project to use it." />
        )}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField field={fields.type} label="Type" select>
          {(props) => (
            <select
              {...props}
              className="h-9 rounded-md border border-input bg-transparent px-3 text-sm shadow-xs focus-visible:ring-[3px] focus-visible:ring-ring/50"
            >
              {PROJECT_TYPES.map((value) => (
                <option key={value} value={value}>
                  {PROJECT_TYPE_LABELS[value]}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField field={fields.url} label="Project URL (optional)">
          {(props) => <Input {...props} type="url" placeholder="https://…" />}
        </FormField>
      </div>
      {/* A native checkbox drawn as a switch: the form also works before (or without) JavaScript. */}
      <div key={fields.featured.key} className="flex items-center gap-3">
        <input
          id="project-featured"
          name={fields.featured.name}
          type="checkbox"
          role="switch"
          defaultChecked={fields.featured.initialValue === "on"}
          className="relative h-5 w-9 shrink-0 cursor-pointer appearance-none rounded-full bg-input transition-colors outline-none before:absolute before:top-0.5 before:left-0.5 before:size-4 before:rounded-full before:bg-background before:shadow-sm before:transition-transform checked:bg-primary checked:before:translate-x-4 focus-visible:ring-[3px] focus-visible:ring-ring/50"
        />
        <Label htmlFor="project-featured">Featured</Label>
      </div>
    </FormCard>
  );
}
