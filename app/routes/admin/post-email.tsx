import { Form, Link, useNavigation } from "react-router";
import { useFailureToast } from "~/components/admin-list";
import { Button } from "~/components/ui/button";
import { handleAdminForm } from "~/features/admin/admin-form.server";
import { requireArea } from "~/features/auth/guards.server";
import { previewPostEmail, sendTestPostEmail, TEST_EMAIL_TEXT } from "~/features/subscriptions/subscriptions.server";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/post-email";

export function meta() {
  return [{ title: "Preview email — Admin" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const actor = await requireArea(request, "posts");
  const message = await withPageFailures(() => previewPostEmail(getDb(), actor, params.postId));
  return {
    subject: message.subject,
    from: message.senderName ?? "",
    headers: Object.entries(message.headers ?? {}),
    html: message.html ?? "",
    text: message.text,
    back: new URL(request.url).searchParams.get("from"),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleAdminForm(request, "posts", {
    "send-test": async ({ actor, db }) => {
      const { to } = await sendTestPostEmail(db, actor, params.postId);
      const url = new URL(request.url);
      return redirectWithToast(`${url.pathname}${url.search}`, {
        title: TEST_EMAIL_TEXT.sent,
        description: `Sent to ${to}`,
        type: "success",
      });
    },
  });
}

/** A post's email as subscribers get it: the HTML part (sandboxed: no script, no navigation), the plain-text part, the headers. */
export default function PostEmailPreview({ loaderData, actionData }: Route.ComponentProps) {
  const { subject, from, headers, html, text, back } = loaderData;
  useFailureToast(actionData && "error" in actionData ? actionData : undefined);
  const sending = useNavigation().state === "submitting";
  return (
    <section className="max-w-5xl space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Preview email</h1>
          <p className="mt-2 text-muted-foreground">The email subscribers get for this post, as last saved. Its links here lead nowhere.</p>
        </div>
        <div className="flex gap-3">
          <Form method="post">
            <input type="hidden" name="intent" value="send-test" />
            <Button type="submit" disabled={sending}>
              {sending ? "Sending..." : "Send test"}
            </Button>
          </Form>
          {back?.startsWith("/") && !back.startsWith("//") ? (
            <Button asChild variant="outline">
              <Link to={back}>Back to the post</Link>
            </Button>
          ) : null}
        </div>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium">From</dt>
        <dd>{from}</dd>
        <dt className="font-medium">Subject</dt>
        <dd>{subject}</dd>
        {headers.map(([name, value]) => (
          <div key={name} className="contents">
            <dt className="font-medium">{name}</dt>
            <dd className="break-all">{value}</dd>
          </div>
        ))}
      </dl>
      <div>
        <h2 className="mb-2 text-xl font-semibold">HTML part</h2>
        <iframe title="Email preview (HTML part)" srcDoc={html} sandbox="" className="h-[720px] w-full rounded-md border bg-white" />
      </div>
      <div>
        <h2 className="mb-2 text-xl font-semibold">Plain-text part</h2>
        <pre className="overflow-x-auto rounded-md border bg-muted p-4 text-sm whitespace-pre-wrap">{text}</pre>
      </div>
    </section>
  );
}
