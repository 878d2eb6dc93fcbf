import { Form } from "react-router";
import { useFailureToast } from "~/components/admin-list";
import { Timestamp } from "~/components/timestamp";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { SubmitButton, useIsSubmitting } from "~/components/forms";
import { handleAdminForm } from "~/features/admin/admin-form.server";
import { requireArea } from "~/features/auth/guards.server";
import { MAIL_LOG_SIZE } from "~/features/mail/mail-settings-schema";
import { listMailLog, retryLoggedMail, type MailLogEntry } from "~/features/mail/mail-settings.server";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/mail-log";

export function meta() {
  return [{ title: "Mail log — Admin" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireArea(request, "mail");
  return { entries: await withPageFailures(() => listMailLog(getDb(), actor)) };
}

export async function action({ request }: Route.ActionArgs) {
  return handleAdminForm(request, "mail", {
    retry: async ({ actor, db, form }) => {
      await retryLoggedMail(db, actor, form.id);
      return redirectWithToast("/admin/mail-log", {
        title: "Queued again",
        description: "The email will be sent in a moment.",
        type: "success",
      });
    },
  });
}

/** The state in words: queued, sent, failed with the reason, retrying at. */
function stateText(entry: MailLogEntry): React.ReactNode {
  switch (entry.state) {
    case "pending":
      return entry.attempts > 0 ? (
        <>
          Retrying at <Timestamp iso={entry.nextAttemptAt} format="local" />
        </>
      ) : (
        "Queued"
      );
    case "sending":
      return "Sending";
    case "sent":
      return "Sent";
    case "failed":
      return "Failed";
    case "skipped":
      return "Not sent";
  }
}

function RetryButton({ id }: { id: string }) {
  const pending = useIsSubmitting({ intent: "retry", id });
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="retry" />
      <input type="hidden" name="id" value={id} />
      <SubmitButton pending={pending} pendingLabel="Queueing…" variant="outline" size="sm">
        Retry now
      </SubmitButton>
    </Form>
  );
}

export default function MailLog({ loaderData, actionData }: Route.ComponentProps) {
  const { entries } = loaderData;
  useFailureToast(actionData && "error" in actionData ? actionData : undefined);
  return (
    <section className="max-w-6xl">
      <h1 className="text-3xl font-bold">Mail log</h1>
      <p className="mt-2 text-muted-foreground">
        {entries.length === 0
          ? "No email has been sent yet."
          : `The last ${Math.min(entries.length, MAIL_LOG_SIZE)} emails, newest first. Sent and failed emails are kept for 30 days.`}
      </p>
      {entries.length > 0 ? (
        <Table containerClassName="mt-6">
          <TableCaption className="sr-only">Emails, newest first</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>Queued</TableHead>
              <TableHead>Kind</TableHead>
              <TableHead>Recipient</TableHead>
              <TableHead>State</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {entries.map((entry) => (
              <TableRow key={entry.id} className="align-top" data-testid="mail-log-row">
                <TableCell className="whitespace-nowrap">
                  <Timestamp iso={entry.createdAt} format="local" />
                </TableCell>
                <TableCell>{entry.label}</TableCell>
                <TableCell className="[overflow-wrap:anywhere]">{entry.recipient || "—"}</TableCell>
                <TableCell>
                  <span className="font-medium">{stateText(entry)}</span>
                  {entry.lastError ? <span className="block text-muted-foreground [overflow-wrap:anywhere]">{entry.lastError}</span> : null}
                </TableCell>
                <TableCell>
                  {entry.kind !== "mail.test" && entry.state !== "sending" && entry.state !== "sent" ? <RetryButton id={entry.id} /> : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
    </section>
  );
}
