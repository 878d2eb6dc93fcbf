import { Form, useActionData, useFetcher, useSearchParams } from "react-router";
import { AdminListPage, DeleteConfirm, EditLink, FormCard, useFailureToast } from "~/components/admin-list";
import { MoveButtons } from "~/components/row-buttons";
import { FormField, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import type { FormFailure } from "~/lib/forms";
import { positionInputSchema } from "./positions-schema";
import type { PositionRow } from "./positions.server";

export type PositionActionData = { ok: true } | FormFailure;

const nameOf = (position: PositionRow) => `${position.title}, ${position.company}`;

/** /admin/recent-roles: add, edit, reorder and delete the Recent Roles timeline's entries. */
export function PositionManagement({ positions }: { positions: PositionRow[] }) {
  const [searchParams] = useSearchParams();
  const editId = searchParams.get("edit");
  const editing = editId ? positions.find((p) => p.id === editId) : undefined;
  const showForm = searchParams.has("new") || Boolean(editing);
  return (
    <AdminListPage
      title="Recent Roles"
      description="The jobs on the Recent Roles page's timeline, most recent first, in the order shown here."
      addLabel="Add role"
      form={showForm ? <PositionForm key={editing?.id ?? "new"} position={editing} /> : null}
      empty={positions.length === 0}
      emptyText="No roles yet. Add the first one to show it on the Recent Roles page."
      listLabel="Roles in display order"
      actions={positions.length > 1 ? <SortByDate /> : null}
    >
      {positions.map((position, index) => (
        <PositionItem key={position.id} position={position} first={index === 0} last={index === positions.length - 1} />
      ))}
    </AdminListPage>
  );
}

/** One click puts the timeline in date order (most recent first); a plain form, so it works without JavaScript. */
function SortByDate() {
  const sorting = useIsSubmitting({ intent: "sort" });
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="sort" />
      <SubmitButton variant="outline" pending={sorting} pendingLabel="Sorting...">
        Sort by date
      </SubmitButton>
    </Form>
  );
}

function PositionItem({ position, first, last }: { position: PositionRow; first: boolean; last: boolean }) {
  const fetcher = useFetcher<PositionActionData>();
  useFailureToast(fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data : undefined);
  const name = nameOf(position);
  return (
    <li>
      <Card className="gap-3 py-4">
        <CardHeader className="flex flex-wrap items-start justify-between gap-3 px-4">
          <div className="min-w-0">
            <h2 className="font-semibold break-words">{position.title}</h2>
            <p className="text-sm break-words text-muted-foreground">
              {[position.company, position.period, position.location].filter(Boolean).join(" · ")}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <MoveButtons
              name={name}
              first={first}
              last={last}
              buttonProps={(direction) => ({
                disabled: fetcher.state !== "idle",
                onClick: () => fetcher.submit({ intent: "move", id: position.id, direction }, { method: "post" }),
              })}
            />
            <EditLink id={position.id} name={name} />
            <DeleteConfirm
              id={position.id}
              name={name}
              title="Delete this role?"
              description={<>&lsquo;{name}&rsquo; will be removed from the Recent Roles page. This cannot be undone.</>}
              confirmLabel="Delete role"
            />
          </div>
        </CardHeader>
        <CardContent className="px-4">
          <p className="line-clamp-2 text-sm break-words text-muted-foreground">{position.description}</p>
          {position.bullets.length > 0 ? (
            <p className="mt-1 text-xs text-muted-foreground">
              {position.bullets.length} highlight{position.bullets.length === 1 ? "" : "s"}
            </p>
          ) : null}
        </CardContent>
      </Card>
    </li>
  );
}

function PositionForm({ position }: { position?: PositionRow }) {
  const actionData = useActionData<PositionActionData>();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const [form, fields] = useSchemaForm({
    id: "position",
    schema: positionInputSchema,
    lastResult: failure?.result,
    defaultValue: {
      title: position?.title ?? "",
      company: position?.company ?? "",
      period: position?.period ?? "",
      location: position?.location ?? "",
      description: position?.description ?? "",
      bullets: position?.bullets.join("\n") ?? "",
    },
  });
  return (
    <FormCard
      heading={position ? `Edit role - ${position.title}` : "Add role"}
      form={form}
      failure={failure}
      editId={position?.id}
      submitLabel={position ? "Save role" : "Add role"}
      cancelTo="/admin/recent-roles"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField field={fields.title} label="Title">
          {(props) => <Input {...props} placeholder="Technical Product Manager" />}
        </FormField>
        <FormField field={fields.company} label="Company">
          {(props) => <Input {...props} />}
        </FormField>
        <FormField field={fields.period} label="Period (optional)">
          {(props) => <Input {...props} placeholder="02/2022 – 07/2025" />}
        </FormField>
        <FormField field={fields.location} label="Location (optional)">
          {(props) => <Input {...props} placeholder="Remote, USA" />}
        </FormField>
      </div>
      <FormField field={fields.description} label="Description">
        {(props) => <Textarea {...props} rows={3} />}
      </FormField>
      <FormField
        field={fields.bullets}
        label="Highlights (optional)"
        hint={<p className="text-sm text-muted-foreground">One a line, in the order shown on the page.</p>}
      >
        {(props) => <Textarea {...props} rows={4} />}
      </FormField>
    </FormCard>
  );
}
