import { ChevronRight, Reply } from "lucide-react";
import { useState } from "react";
import { data, Form, Link, redirect } from "react-router";
import { z } from "zod";
import { useIsSubmitting } from "~/components/forms";
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
import { LocalTime } from "~/components/local-time";
import { Button } from "~/components/ui/button";
import { useSite } from "~/features/settings/use-site";
import {
  deleteContactMessage,
  listContactMessages,
  retryMessageDelivery,
  setMessageHandled,
  type InboxMessage,
} from "~/features/contact/contact.server";
import { ACCESS_DENIED, adminFailure } from "~/features/admin/admin-guard.server";
import { getSessionUser, type SessionUser } from "~/features/auth/session.server";
import { parseSubmission } from "~/lib/forms";
import { canDeleteMessages, canReadMessages } from "~/lib/permissions";
import { seoContext, seoMeta } from "~/lib/seo";
import { getDb } from "~/server/db/client.server";
import { withRouteErrors } from "~/server/errors.server";
import { pageParam } from "~/server/pagination.server";
import { redirectWithToast } from "~/server/toast.server";
import { readForm } from "~/server/form.server";
import type { Route } from "./+types/messages";

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: "Messages — Admin",
    description: "Contact messages and their delivery state.",
    path: "/admin/messages",
    noindex: true,
  });
}

/** SPEC §4 admin access: no user → /auth; without edit permission → / with the access-denied toast. */
async function requireInboxUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw redirect("/auth");
  if (!canReadMessages(user)) {
    throw await redirectWithToast("/", { ...ACCESS_DENIED, type: "error" });
  }
  return user;
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireInboxUser(request);
  const { messages, total, page, pageCount } = await withRouteErrors(() => listContactMessages(getDb(), pageParam(request)));
  return { messages, total, page, pageCount, canDelete: canDeleteMessages(user) };
}

const actionSchema = z.object({
  intent: z.enum(["handled", "unhandled", "retry", "delete"]),
  id: z.uuid("Unknown message"),
});

const DONE: Record<z.infer<typeof actionSchema>["intent"], string> = {
  handled: "Marked as handled.",
  unhandled: "Marked as not handled.",
  retry: "Queued for delivery now.",
  delete: "Message deleted.",
};

export async function action({ request }: Route.ActionArgs) {
  const user = await getSessionUser(request);
  const form = await withRouteErrors(() => readForm(request));
  const parsed = parseSubmission(form, actionSchema);
  if (parsed.status !== "success")
    return data({ ok: false, message: "That request was not understood. Please reload the page." }, { status: 400 });
  const { intent, id } = parsed.value;
  const db = getDb();
  try {
    if (intent === "handled" || intent === "unhandled") await setMessageHandled(db, user, id, intent === "handled");
    else if (intent === "retry") await retryMessageDelivery(db, user, id);
    else {
      await deleteContactMessage(db, user, id);
      // The last message of the last page went: past the last page is a 404, so go to the new last page.
      const page = pageParam(request);
      const { pageCount } = page > 1 ? await listContactMessages(db, 1) : { pageCount: 1 };
      if (page > pageCount)
        return await redirectWithToast(pageCount > 1 ? `/admin/messages?page=${pageCount}` : "/admin/messages", {
          title: DONE.delete,
          type: "success",
        });
    }
    return data({ ok: true, message: DONE[intent] });
  } catch (error) {
    // A refusal (401/403) is thrown, not redirected: the error page says why.
    const { status, message } = adminFailure(error);
    return data({ ok: false, message }, { status });
  }
}

const STATE_LABEL: Record<InboxMessage["deliveryState"], string> = {
  pending: "Pending",
  sending: "Sending",
  sent: "Emailed",
  failed: "Delivery failed",
  skipped: "Not emailed (mail not configured)",
};

const STATE_CLASS: Record<InboxMessage["deliveryState"], string> = {
  pending: "bg-amber-100 text-amber-900",
  sending: "bg-sky-100 text-sky-900",
  sent: "bg-emerald-100 text-emerald-900",
  failed: "bg-red-100 text-red-900",
  skipped: "bg-neutral-200 text-neutral-900",
};

/** In the viewer's time zone once hydrated (UTC from the server). */
function When({ date }: { date: Date | null }) {
  return date ? <LocalTime date={date} /> : <>—</>;
}

/** 'Reply by email': the visitor's address with the subject filled in. */
function replyHref(email: string, siteName: string): string {
  return `mailto:${email}?subject=${encodeURIComponent(`Re: your message to ${siteName}`)}`;
}

export default function Messages({ loaderData, actionData }: Route.ComponentProps) {
  const { messages, total, page, pageCount, canDelete } = loaderData;
  return (
    <section className="max-w-5xl">
      <h1 className="text-3xl font-bold">Messages</h1>
      <p className="mt-2 text-muted-foreground">
        {total === 0 ? "No messages yet." : `${total} message${total === 1 ? "" : "s"}, newest first.`}
      </p>
      <div role="status" aria-live="polite" className="mt-4 min-h-6 text-sm">
        {actionData ? <span className={actionData.ok ? "text-emerald-800" : "text-destructive"}>{actionData.message}</span> : null}
      </div>
      <ul className="mt-4 space-y-3">
        {messages.map((m) => (
          <li key={m.id}>
            <MessageItem message={m} canDelete={canDelete} />
          </li>
        ))}
      </ul>
      {pageCount > 1 ? (
        <nav aria-label="Message pages" className="mt-6 flex items-center gap-4 text-sm">
          {page > 1 ? (
            <Link to={page === 2 ? "/admin/messages" : `/admin/messages?page=${page - 1}`} className="underline">
              Newer messages
            </Link>
          ) : null}
          <span>
            Page {page} of {pageCount}
          </span>
          {page < pageCount ? (
            <Link to={`/admin/messages?page=${page + 1}`} className="underline">
              Older messages
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

function MessageItem({ message: m, canDelete }: { message: InboxMessage; canDelete: boolean }) {
  const { siteName } = useSite();
  const busy = useIsSubmitting({ id: m.id });
  const [confirming, setConfirming] = useState(false);
  return (
    <details className="group rounded-lg border bg-card" data-testid="contact-message">
      {/* The whole row opens the message: it looks like it (hover, focus ring, chevron). */}
      <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-4 gap-y-1 rounded-lg p-4 outline-none hover:bg-accent/60 focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
        <ChevronRight aria-hidden className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-90" />
        <span className="min-w-0 font-semibold [overflow-wrap:anywhere]">{m.name}</span>
        <span className="min-w-0 text-sm text-muted-foreground [overflow-wrap:anywhere]">{m.email}</span>
        <span className={`rounded px-2 py-0.5 text-xs font-medium ${STATE_CLASS[m.deliveryState]}`}>{STATE_LABEL[m.deliveryState]}</span>
        {m.handledAt ? <span className="rounded bg-neutral-200 px-2 py-0.5 text-xs font-medium text-neutral-900">Handled</span> : null}
        <LocalTime date={m.createdAt} className="ml-auto text-sm text-muted-foreground" />
      </summary>
      <div className="space-y-4 border-t p-4">
        <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{m.message}</p>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">From</dt>
          <dd className="[overflow-wrap:anywhere]">{m.email}</dd>
          <dt className="text-muted-foreground">Delivery</dt>
          <dd>
            {STATE_LABEL[m.deliveryState]} · {m.attempts} attempt{m.attempts === 1 ? "" : "s"}
            {m.deliveredAt ? (
              <>
                {" "}
                · emailed <When date={m.deliveredAt} />
              </>
            ) : null}
            {m.deliveryState === "pending" && m.attempts > 0 ? (
              <>
                {" "}
                · next try <When date={m.nextAttemptAt} />
              </>
            ) : null}
          </dd>
          {m.lastError ? (
            <>
              <dt className="text-muted-foreground">Last error</dt>
              <dd className="[overflow-wrap:anywhere]">{m.lastError}</dd>
            </>
          ) : null}
          {m.handledAt ? (
            <>
              <dt className="text-muted-foreground">Handled</dt>
              <dd>
                <When date={m.handledAt} />
              </dd>
            </>
          ) : null}
        </dl>
        <div className="flex flex-wrap gap-2">
          <Button asChild size="sm">
            <a href={replyHref(m.email, siteName)}>
              <Reply aria-hidden />
              Reply by email
            </a>
          </Button>
          <Form method="post">
            <input type="hidden" name="id" value={m.id} />
            <Button type="submit" name="intent" value={m.handledAt ? "unhandled" : "handled"} variant="outline" size="sm" disabled={busy}>
              {m.handledAt ? "Mark as not handled" : "Mark handled"}
            </Button>
          </Form>
          {m.deliveryState !== "sending" ? (
            <Form method="post">
              <input type="hidden" name="id" value={m.id} />
              <Button type="submit" name="intent" value="retry" variant="outline" size="sm" disabled={busy}>
                {m.deliveryState === "sent" ? "Send email again" : "Retry delivery now"}
              </Button>
            </Form>
          ) : null}
          {canDelete ? (
            <AlertDialog open={confirming} onOpenChange={setConfirming}>
              <AlertDialogTrigger asChild>
                <Button type="button" variant="destructive" size="sm" disabled={busy}>
                  Delete
                </Button>
              </AlertDialogTrigger>
              <AlertDialogContent>
                <AlertDialogHeader>
                  <AlertDialogTitle>Delete this message?</AlertDialogTitle>
                  <AlertDialogDescription>
                    The message from {m.name} will be removed for good. This cannot be undone.
                  </AlertDialogDescription>
                </AlertDialogHeader>
                <Form method="post" onSubmit={() => setConfirming(false)}>
                  <input type="hidden" name="id" value={m.id} />
                  <AlertDialogFooter>
                    <AlertDialogCancel type="button">Cancel</AlertDialogCancel>
                    <Button type="submit" name="intent" value="delete" variant="destructive">
                      Delete message
                    </Button>
                  </AlertDialogFooter>
                </Form>
              </AlertDialogContent>
            </AlertDialog>
          ) : null}
        </div>
      </div>
    </details>
  );
}
