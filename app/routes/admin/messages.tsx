import { data } from "react-router";
import { ActionStatus } from "~/components/admin-list";
import { Pager } from "~/components/pager";
import { cameFromOf } from "~/features/analytics/attribution.server";
import { listContactMessages } from "~/features/contact/contact.server";
import { applyInboxAction, INBOX_ACTION_NOT_UNDERSTOOD, inboxActionSchema } from "~/features/contact/inbox-actions.server";
import { MessageItem } from "~/features/contact/inbox-message";
import { requireArea } from "~/features/auth/guards.server";
import { parseSubmission, type FormFailure } from "~/lib/forms";
import { canDeleteMessages } from "~/lib/permissions";
import { seoContext, seoMeta } from "~/lib/seo";
import { getDb } from "~/server/db/client.server";
import { formFailure, withPageFailures } from "~/server/failure-reply.server";
import { readForm } from "~/server/form.server";
import { pageParam } from "~/server/pagination.server";
import type { Route } from "./+types/messages";

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: "Messages — Admin",
    description: "Contact messages and their delivery state.",
    path: "/admin/messages",
    noindex: true,
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireArea(request, "messages");
  const { messages, total, page, pageCount } = await withPageFailures(() => listContactMessages(getDb(), pageParam(request)));
  const cameFrom = Object.fromEntries(
    await cameFromOf(
      getDb(),
      "contact",
      messages.map((m) => m.id),
    ),
  );
  return { messages, total, page, pageCount, canDelete: canDeleteMessages(user), cameFrom };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await withPageFailures(() => readForm(request));
  const user = await requireArea(request, "messages");
  const parsed = parseSubmission(form, inboxActionSchema);
  if (parsed.status !== "success") return data<FormFailure>({ ok: false, error: INBOX_ACTION_NOT_UNDERSTOOD }, { status: 400 });
  try {
    return await applyInboxAction(getDb(), user, parsed.value, pageParam(request));
  } catch (error) {
    return formFailure(error, undefined, { refusals: "page" });
  }
}

export default function Messages({ loaderData, actionData }: Route.ComponentProps) {
  const { messages, total, page, pageCount, canDelete, cameFrom } = loaderData;
  return (
    <section className="max-w-5xl">
      <h1 className="text-3xl font-bold">Messages</h1>
      <p className="mt-2 text-muted-foreground">
        {total === 0 ? "No messages yet." : `${total} message${total === 1 ? "" : "s"}, newest first.`}
      </p>
      <ActionStatus result={actionData} />
      <ul className="mt-4 space-y-3">
        {messages.map((m) => (
          <li key={m.id}>
            <MessageItem message={m} canDelete={canDelete} cameFrom={cameFrom[m.id]} />
          </li>
        ))}
      </ul>
      <Pager
        label="Message pages"
        page={page}
        pageCount={pageCount}
        href={(n) => (n > 1 ? `/admin/messages?page=${n}` : "/admin/messages")}
        prevLabel="Newer messages"
        nextLabel="Older messages"
      />
    </section>
  );
}
