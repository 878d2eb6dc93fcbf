import { ArrowDown, ArrowUp, Eye, EyeOff, Pencil, Plus, Trash2 } from "lucide-react";
import { useEffect } from "react";
import { Form, Link, useActionData, useFetcher, useSearchParams } from "react-router";
import { toast } from "sonner";
import { FormErrors, FormField, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
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
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Testimonials</h1>
          <p className="mt-2 text-muted-foreground">What colleagues and clients say, in the order the Testimonials page shows them.</p>
        </div>
        {!showForm ? (
          <Button asChild>
            <Link to="?new">
              <Plus aria-hidden />
              Add testimonial
            </Link>
          </Button>
        ) : null}
      </div>
      {showForm ? <TestimonialForm key={editing?.id ?? "new"} testimonial={editing} /> : null}
      {testimonials.length === 0 ? (
        <p className="text-muted-foreground">No testimonials yet. Add the first one to show it on the site.</p>
      ) : (
        <ol className="flex flex-col gap-3" aria-label="Testimonials in display order">
          {testimonials.map((testimonial, index) => (
            <TestimonialItem key={testimonial.id} testimonial={testimonial} first={index === 0} last={index === testimonials.length - 1} />
          ))}
        </ol>
      )}
    </div>
  );
}

function TestimonialItem({ testimonial, first, last }: { testimonial: TestimonialRow; first: boolean; last: boolean }) {
  const fetcher = useFetcher<TestimonialActionData>();
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data && !fetcher.data.ok) toast.error("Error", { description: fetcher.data.error });
  }, [fetcher.state, fetcher.data]);
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
            <Button
              variant="outline"
              size="sm"
              disabled={first || busy}
              onClick={() => send({ intent: "move", direction: "up" })}
              aria-label={`Move ${testimonial.name} up`}
            >
              <ArrowUp aria-hidden />
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={last || busy}
              onClick={() => send({ intent: "move", direction: "down" })}
              aria-label={`Move ${testimonial.name} down`}
            >
              <ArrowDown aria-hidden />
            </Button>
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
            <Button asChild variant="outline" size="sm">
              <Link to={`?edit=${testimonial.id}`} aria-label={`Edit ${testimonial.name}`}>
                <Pencil aria-hidden />
                Edit
              </Link>
            </Button>
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
  const busy = useIsSubmitting({ intent: "delete", id: testimonial.id });
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="destructive" size="sm" aria-label={`Delete ${testimonial.name}`}>
          <Trash2 aria-hidden />
          Delete
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete this testimonial?</AlertDialogTitle>
          <AlertDialogDescription>
            &lsquo;{testimonial.name}&rsquo;s testimonial will be removed from the site. This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <Form method="post">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={testimonial.id} />
            <SubmitButton variant="destructive" pending={busy} pendingLabel="Deleting..." className="w-full">
              Delete testimonial
            </SubmitButton>
          </Form>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

function TestimonialForm({ testimonial }: { testimonial?: TestimonialRow }) {
  const actionData = useActionData<TestimonialActionData>();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const intent = testimonial ? "update" : "create";
  const saving = useIsSubmitting({ intent });
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
  useEffect(() => {
    if (failure) toast.error("Error", { description: failure.error });
  }, [failure]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">{testimonial ? `Edit testimonial - ${testimonial.name}` : "Add testimonial"}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit} className="grid gap-4">
          <input type="hidden" name="intent" value={intent} />
          {testimonial ? <input type="hidden" name="id" value={testimonial.id} /> : null}
          <FormErrors form={form} />
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
          <div className="flex gap-2">
            <SubmitButton pending={saving} pendingLabel="Saving...">
              {testimonial ? "Save testimonial" : "Add testimonial"}
            </SubmitButton>
            <Button asChild variant="outline">
              <Link to="/admin/testimonials">Cancel</Link>
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
