import { Pager } from "~/components/pager";
import { useFailureToast } from "~/components/admin-list";
import { Button } from "~/components/ui/button";
import { requireArea } from "~/features/auth/guards.server";
import { handleAdminForm } from "~/features/admin/admin-form.server";
import { deleteSubscriber, listSubscribers } from "~/features/subscriptions/subscriptions.server";
import { NewsletterSettingsForm } from "~/features/subscriptions/newsletter-settings-form";
import { NEWSLETTER_TEXT } from "~/features/subscriptions/newsletter-settings";
import { readNewsletterSettings, saveNewsletterSettings } from "~/features/subscriptions/newsletter-settings.server";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { pageParam } from "~/server/pagination.server";
import { redirectWithToast } from "~/server/toast.server";
import { SubscribersByCategory, SubscriberTable } from "~/features/subscriptions/subscriber-tables";
import type { Route } from "./+types/subscribers";

export function meta() {
  return [{ title: "Subscribers — Admin" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireArea(request, "subscribers");
  const found = await withPageFailures(() => listSubscribers(getDb(), actor, pageParam(request)));
  const newsletter = await readNewsletterSettings(getDb());
  return { ...found, newsletter, rows: found.rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
}

export async function action({ request }: Route.ActionArgs) {
  return handleAdminForm(request, "subscribers", {
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
      <SubscribersByCategory byCategory={byCategory} />
      <SubscriberTable rows={rows} />
      <Pager
        label="Subscriber pages"
        page={page}
        pageCount={pageCount}
        href={pageHref}
        prevLabel="Newer subscribers"
        nextLabel="Older subscribers"
      />
    </section>
  );
}
