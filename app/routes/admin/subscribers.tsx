import { Pager } from "~/components/pager";
import { DeleteConfirm, useFailureToast } from "~/components/admin-list";
import { Timestamp } from "~/components/timestamp";
import { Button } from "~/components/ui/button";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requireArea } from "~/features/auth/guards.server";
import { handleAdminForm } from "~/features/admin/admin-form.server";
import { deleteSubscriber, listSubscribers, type SubscriberRow } from "~/features/subscriptions/subscriptions.server";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { pageParam } from "~/server/pagination.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/subscribers";

export function meta() {
  return [{ title: "Subscribers — Admin" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireArea(request, "subscribers");
  const found = await withPageFailures(() => listSubscribers(getDb(), actor, pageParam(request)));
  return { ...found, rows: found.rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
}

export async function action({ request }: Route.ActionArgs) {
  return handleAdminForm(request, "subscribers", {
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
  const { byState, byCategory, total, rows, page, pageCount } = loaderData;
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
      <Table containerClassName="mt-6" className="w-auto">
        <TableCaption className="mb-2 text-left font-semibold">Confirmed subscribers by category</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead className="py-1 pr-6">Category</TableHead>
            <TableHead className="py-1">Subscribers</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {byCategory.map((c) => (
            <TableRow key={c.category}>
              <TableCell className="py-1 pr-6">{c.category}</TableCell>
              <TableCell className="py-1">{c.confirmed}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {rows.length > 0 ? (
        <Table containerClassName="mt-8">
          <TableCaption className="sr-only">Subscribers, newest first</TableCaption>
          <TableHeader>
            <TableRow>
              {["Email", "State", "Categories", "Since"].map((column) => (
                <TableHead key={column}>{column}</TableHead>
              ))}
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.id} className="align-top" data-testid="subscriber-row">
                <TableCell className="break-all">{r.email}</TableCell>
                <TableCell>{STATE_LABEL[r.state]}</TableCell>
                <TableCell>{r.categories.join(", ")}</TableCell>
                <TableCell className="whitespace-nowrap">
                  <Timestamp iso={r.createdAt} format="date" />
                </TableCell>
                <TableCell>
                  <DeleteConfirm
                    id={r.id}
                    name={r.email}
                    title="Delete this subscriber?"
                    description={`${r.email} will be removed for good, with its subscription history. This cannot be undone.`}
                    confirmLabel="Delete subscriber"
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
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
