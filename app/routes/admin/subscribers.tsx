import { Link } from "react-router";
import { DeleteConfirm, useFailureToast } from "~/components/admin-list";
import { Button } from "~/components/ui/button";
import { handleAdminForm, requireActor } from "~/features/admin/admin-guard.server";
import {
  deleteSubscriber,
  listSubscribers,
  SUBSCRIBERS_FORBIDDEN,
  type SubscriberRow,
} from "~/features/subscriptions/subscriptions.server";
import { NewsletterSettingsForm } from "~/features/subscriptions/newsletter-settings-form";
import { NEWSLETTER_TEXT } from "~/features/subscriptions/newsletter-settings";
import { readNewsletterSettings, saveNewsletterSettings } from "~/features/subscriptions/newsletter-settings.server";
import { canManageSubscribers } from "~/lib/permissions";
import { getDb } from "~/server/db/client.server";
import { withRouteErrors } from "~/server/errors.server";
import { pageParam } from "~/server/pagination.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/subscribers";

export function meta() {
  return [{ title: "Subscribers — Admin" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireActor(request, canManageSubscribers, SUBSCRIBERS_FORBIDDEN);
  const found = await withRouteErrors(() => listSubscribers(getDb(), actor, pageParam(request)));
  const newsletter = await readNewsletterSettings(getDb());
  return { ...found, newsletter, rows: found.rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
}

export async function action({ request }: Route.ActionArgs) {
  return handleAdminForm(request, {
    "newsletter-settings": async ({ actor, db, form }) => {
      await saveNewsletterSettings(db, actor, form);
      return redirectWithToast("/admin/subscribers", { title: NEWSLETTER_TEXT.saved, type: "success" });
    },
    delete: async ({ actor, db, form }) => {
      await deleteSubscriber(db, actor, form.id);
      const page = pageParam(request);
      const { pageCount } = await listSubscribers(db, actor, 1);
      const to = page > 1 && page <= pageCount ? `/admin/subscribers?page=${page}` : "/admin/subscribers";
      return redirectWithToast(to, { title: "Subscriber deleted", description: "The address was removed for good.", type: "success" });
    },
  });
}

const STATE_LABEL: Record<SubscriberRow["state"], string> = {
  pending: "Pending",
  confirmed: "Confirmed",
  unsubscribed: "Unsubscribed",
};

export default function Subscribers({ loaderData, actionData }: Route.ComponentProps) {
  const { byState, byCategory, total, rows, page, pageCount, newsletter } = loaderData;
  useFailureToast(actionData && "error" in actionData ? actionData : undefined);
  const pageHref = (n: number) => (n > 1 ? `/admin/subscribers?page=${n}` : "/admin/subscribers");
  return (
    <section className="max-w-5xl">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Subscribers</h1>
          <p className="mt-2 text-muted-foreground">
            {total === 0
              ? "No subscribers yet."
              : `${byState.confirmed} confirmed, ${byState.pending} pending, ${byState.unsubscribed} unsubscribed.`}
          </p>
        </div>
        <Button asChild variant="outline">
          {/* A file download, not a page: the browser must fetch it itself. */}
          <a href="/admin/subscribers.csv" download>
            Export CSV
          </a>
        </Button>
      </div>
      <NewsletterSettingsForm settings={newsletter} lastResult={actionData && "result" in actionData ? actionData.result : undefined} />
      <table className="mt-6 text-left text-sm">
        <caption className="mb-2 text-left font-semibold">Confirmed subscribers by category</caption>
        <thead>
          <tr className="border-b">
            <th scope="col" className="py-1 pr-6">
              Category
            </th>
            <th scope="col" className="py-1">
              Subscribers
            </th>
          </tr>
        </thead>
        <tbody>
          {byCategory.map((c) => (
            <tr key={c.category} className="border-b">
              <td className="py-1 pr-6">{c.category}</td>
              <td className="py-1">{c.confirmed}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > 0 ? (
        <div className="mt-8 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Subscribers, newest first</caption>
            <thead>
              <tr className="border-b">
                <th scope="col" className="py-2 pr-4">
                  Email
                </th>
                <th scope="col" className="py-2 pr-4">
                  State
                </th>
                <th scope="col" className="py-2 pr-4">
                  Categories
                </th>
                <th scope="col" className="py-2 pr-4">
                  Since
                </th>
                <th scope="col" className="py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} className="border-b align-top" data-testid="subscriber-row">
                  <td className="py-2 pr-4 break-all">{r.email}</td>
                  <td className="py-2 pr-4">{STATE_LABEL[r.state]}</td>
                  <td className="py-2 pr-4">{r.categories.join(", ")}</td>
                  <td className="py-2 pr-4 whitespace-nowrap">
                    <time dateTime={r.createdAt}>{r.createdAt.slice(0, 10)}</time>
                  </td>
                  <td className="py-2">
                    <DeleteConfirm
                      id={r.id}
                      name={r.email}
                      title="Delete this subscriber?"
                      description={`${r.email} will be removed for good, with its subscription history. This cannot be undone.`}
                      confirmLabel="Delete subscriber"
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {pageCount > 1 ? (
        <nav aria-label="Subscriber pages" className="mt-6 flex items-center gap-4 text-sm">
          {page > 1 ? (
            <Link to={pageHref(page - 1)} className="underline">
              Newer subscribers
            </Link>
          ) : null}
          <span>
            Page {page} of {pageCount}
          </span>
          {page < pageCount ? (
            <Link to={pageHref(page + 1)} className="underline">
              Older subscribers
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
