import { Eye, EyeOff } from "lucide-react";
import { useActionData, useFetcher, useSearchParams } from "react-router";
import { AdminListPage, DeleteConfirm, EditLink, FormCard, useFailureToast } from "~/components/admin-list";
import { MoveButtons } from "~/components/row-buttons";
import { FormField, useSchemaForm } from "~/components/forms";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import type { FormFailure } from "~/lib/forms";
import { testimonialInputSchema } from "./testimonials-schema";
import type { TestimonialRow } from "./testimonials.server";

export type TestimonialActionData = { ok: true } | FormFailure;

/** /admin/testimonials: add, edit, hide, reorder and delete the Testimonials page's cards. */
export function TestimonialManagement({ testimonials }: { testimonials: TestimonialRow[] }) {
  const [searchParams] = useSearchParams();
  const editId = searchParams.get("edit");
  const editing = editId ? testimonials.find((t) => t.id === editId) : undefined;
  const showForm = searchParams.has("new") || Boolean(editing);
  return (
    <AdminListPage
      title="Testimonials"
      description="What colleagues and clients say, in the order the Testimonials page shows them."
      addLabel="Add testimonial"
      form={showForm ? <TestimonialForm key={editing?.id ?? "new"} testimonial={editing} /> : null}
      empty={testimonials.length === 0}
      emptyText="No testimonials yet. Add the first one to show it on the site."
      listLabel="Testimonials in display order"
    >
      {testimonials.map((testimonial, index) => (
        <TestimonialItem key={testimonial.id} testimonial={testimonial} first={index === 0} last={index === testimonials.length - 1} />
      ))}
    </AdminListPage>
  );
}

function TestimonialItem({ testimonial, first, last }: { testimonial: TestimonialRow; first: boolean; last: boolean }) {
  const fetcher = useFetcher<TestimonialActionData>();
  useFailureToast(fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data : undefined);
  const busy = fetcher.state !== "idle";
  const send = (fields: Record<string, string>) => fetcher.submit({ id: testimonial.id, ...fields }, { method: "post" });
  return (
    <li>
      <Card className="gap-3 py-4">
        <CardHeader className="flex flex-wrap items-start justify-between gap-3 px-4">
          <div className="min-w-0">
            <h2 className="font-semibold break-words">{testimonial.name}</h2>
            <p className="text-sm text-muted-foreground">
              {testimonial.position}
              {testimonial.company ? `, ${testimonial.company}` : ""}
              {testimonial.date ? ` · ${testimonial.date}` : ""}
            </p>
            {testimonial.hidden ? (
              <Badge variant="secondary" className="mt-1">
                Hidden
              </Badge>
            ) : null}
          </div>
          <div className="flex flex-wrap gap-2">
            <MoveButtons
              name={testimonial.name}
              first={first}
              last={last}
              buttonProps={(direction) => ({ disabled: busy, onClick: () => send({ intent: "move", direction }) })}
            />
            <Button
              variant="outline"
              size="sm"
              disabled={busy}
              onClick={() => send({ intent: "hide", hidden: testimonial.hidden ? "false" : "true" })}
              aria-label={`${testimonial.hidden ? "Show" : "Hide"} ${testimonial.name}`}
            >
              {testimonial.hidden ? <Eye aria-hidden /> : <EyeOff aria-hidden />}
              {testimonial.hidden ? "Show" : "Hide"}
            </Button>
            <EditLink id={testimonial.id} name={testimonial.name} />
            <DeleteTestimonialButton testimonial={testimonial} />
          </div>
        </CardHeader>
        <CardContent className="px-4">
          <p className="line-clamp-3 text-sm break-words text-muted-foreground">“{testimonial.text}”</p>
        </CardContent>
      </Card>
    </li>
  );
}

function DeleteTestimonialButton({ testimonial }: { testimonial: TestimonialRow }) {
  return (
    <DeleteConfirm
      id={testimonial.id}
      name={testimonial.name}
      title="Delete this testimonial?"
      description={<>&lsquo;{testimonial.name}&rsquo;s testimonial will be removed from the site. This cannot be undone.</>}
      confirmLabel="Delete testimonial"
    />
  );
}

function TestimonialForm({ testimonial }: { testimonial?: TestimonialRow }) {
  const actionData = useActionData<TestimonialActionData>();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const [form, fields] = useSchemaForm({
    id: "testimonial",
    schema: testimonialInputSchema,
    lastResult: failure?.result,
    defaultValue: {
      name: testimonial?.name ?? "",
      position: testimonial?.position ?? "",
      company: testimonial?.company ?? "",
      date: testimonial?.date ?? "",
      text: testimonial?.text ?? "",
    },
  });
  return (
    <FormCard
      heading={testimonial ? `Edit testimonial - ${testimonial.name}` : "Add testimonial"}
      form={form}
      failure={failure}
      editId={testimonial?.id}
      submitLabel={testimonial ? "Save testimonial" : "Add testimonial"}
      cancelTo="/admin/testimonials"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField field={fields.name} label="Name">
          {(props) => <Input {...props} />}
        </FormField>
        <FormField field={fields.position} label="Job title">
          {(props) => <Input {...props} />}
        </FormField>
        <FormField field={fields.company} label="Company (optional)">
          {(props) => <Input {...props} />}
        </FormField>
        <FormField field={fields.date} label="Date (optional)">
          {(props) => <Input {...props} placeholder="June 2025" />}
        </FormField>
      </div>
      <FormField field={fields.text} label="Quote">
        {(props) => <Textarea {...props} rows={4} />}
      </FormField>
    </FormCard>
  );
}
