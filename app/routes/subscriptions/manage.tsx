import { data, Form, Link } from "react-router";
import { FieldError, FormErrors, SubmitButton, useIsSubmitting, useSchemaForm, errorIdOf } from "~/components/forms";
import { manageSchema, SUBSCRIBE_TEXT } from "~/features/subscriptions/subscription-schema";
import { getSubscription, updateSubscriptionCategories } from "~/features/subscriptions/subscriptions.server";
import { CATEGORIES } from "~/lib/categories";
import { parseSubmission, type FormFailure } from "~/lib/forms";
import { getDb } from "~/server/db/client.server";
import { errorAnswer } from "~/server/errors.server";
import { withPageFailures, formFailure, invalidSubmission } from "~/server/failure-reply.server";
import { readForm } from "~/server/form.server";
import type { Route } from "./+types/manage";

export function meta() {
  return [{ title: "Your subscription" }, { name: "robots", content: "noindex" }];
}

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token");

export async function loader({ request }: Route.LoaderArgs) {
  const token = tokenOf(request);
  try {
    const { email, state, categories } = await getSubscription(getDb(), token);
    return { found: true as const, token: token ?? "", email, confirmed: state === "confirmed", categories };
  } catch (error) {
    const { status, message } = errorAnswer(error);
    return data({ found: false as const, message }, { status });
  }
}

export async function action({ request }: Route.ActionArgs) {
  const form = await withPageFailures(() => readForm(request));
  const submission = parseSubmission(form, manageSchema);
  if (submission.status !== "success") return invalidSubmission(submission);
  try {
    await updateSubscriptionCategories(getDb(), tokenOf(request), submission.value);
    return { ok: true as const };
  } catch (error) {
    return formFailure(error, submission);
  }
}

export default function ManageSubscription({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-2xl px-4 py-16">
      <h1 className="text-3xl font-bold">Your subscription</h1>
      {!loaderData.found || !loaderData.confirmed ? (
        <p role="alert" className="mt-4">
          {loaderData.found ? SUBSCRIBE_TEXT.manageInvalid : loaderData.message}
        </p>
      ) : (
        <ManageForm
          token={loaderData.token}
          email={loaderData.email}
          categories={loaderData.categories}
          actionData={actionData && "result" in actionData ? actionData : undefined}
          saved={actionData?.ok === true}
        />
      )}
    </section>
  );
}

function ManageForm({
  token,
  email,
  categories,
  actionData,
  saved,
}: {
  token: string;
  email: string;
  categories: string[];
  actionData: FormFailure | undefined;
  saved: boolean;
}) {
  const [form, fields] = useSchemaForm({ id: "manage-subscription", schema: manageSchema, lastResult: actionData?.result });
  const pending = useIsSubmitting();
  const ticked = new Set(categories);
  const errorId = errorIdOf("manage-subscription-categories");
  const query = `?token=${encodeURIComponent(token)}`;
  return (
    <>
      <p className="mt-4">
        Emails about new posts go to <strong>{email}</strong>.
      </p>
      <Form
        method="post"
        action={`/subscribe/manage${query}`}
        id={form.id}
        noValidate={form.noValidate}
        onSubmit={form.onSubmit}
        className="mt-6 space-y-4"
      >
        <FormErrors form={form} />
        <fieldset aria-describedby={fields.categories.errors?.length ? errorId : undefined} className="space-y-2">
          <legend className="font-medium">Categories</legend>
          {CATEGORIES.map((category) => (
            <label key={category} className="flex items-center gap-2">
              <input type="checkbox" name="categories" value={category} defaultChecked={ticked.has(category)} className="size-4" />
              {category}
            </label>
          ))}
          <FieldError id={errorId} errors={fields.categories.errors} />
        </fieldset>
        <div role="status" className="min-h-6 text-sm">
          {saved ? SUBSCRIBE_TEXT.saved : null}
        </div>
        <SubmitButton pending={pending} pendingLabel="Saving...">
          Save categories
        </SubmitButton>
      </Form>
      <p className="mt-8 text-sm">
        <Link to={`/unsubscribe${query}`} className="text-primary underline">
          Unsubscribe from all emails
        </Link>
      </p>
    </>
  );
}
