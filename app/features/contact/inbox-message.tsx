import { ChevronRight, Reply } from "lucide-react";
import { useState } from "react";
import { Form } from "react-router";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { useIsSubmitting } from "~/components/forms";
import { Timestamp } from "~/components/timestamp";
import { Button } from "~/components/ui/button";
import { useSite } from "~/features/settings/use-site";
import type { InboxMessage } from "./contact.server";

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
  return date ? <Timestamp iso={date} format="local" /> : <>—</>;
}

/** 'Reply by email': the visitor's address with the subject filled in. */
function replyHref(email: string, siteName: string): string {
  return `mailto:${email}?subject=${encodeURIComponent(`Re: your message to ${siteName}`)}`;
}

/** One contact message: its row (opens it), the text, the delivery state and what staff can do with it. */
export function MessageItem({ message: m, canDelete }: { message: InboxMessage; canDelete: boolean }) {
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
        <Timestamp iso={m.createdAt} format="local" className="ml-auto text-sm text-muted-foreground" />
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
            <ConfirmDialog
              open={confirming}
              onOpenChange={setConfirming}
              trigger={
                <Button type="button" variant="destructive" size="sm" disabled={busy}>
                  Delete
                </Button>
              }
              title="Delete this message?"
              description={`The message from ${m.name} will be removed for good. This cannot be undone.`}
            >
              <Form method="post" onSubmit={() => setConfirming(false)}>
                <input type="hidden" name="id" value={m.id} />
                <Button type="submit" name="intent" value="delete" variant="destructive">
                  Delete message
                </Button>
              </Form>
            </ConfirmDialog>
          ) : null}
        </div>
      </div>
    </details>
  );
}
