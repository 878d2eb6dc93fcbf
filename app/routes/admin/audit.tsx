import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { getSessionUser } from "~/features/auth/session.server";
import { listAudit } from "~/server/audit.server";
import { getDb } from "~/server/db/client.server";
import { withRouteErrors } from "~/server/errors.server";
import { pageParam } from "~/server/pagination.server";
import type { Route } from "./+types/audit";

export function meta() {
  return [{ title: "Audit log — Admin" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await getSessionUser(request);
  const params = new URL(request.url).searchParams;
  const found = await withRouteErrors(() =>
    listAudit(getDb(), actor, { actor: params.get("actor") ?? undefined, action: params.get("action") ?? undefined }, pageParam(request)),
  );
  return {
    ...found,
    rows: found.rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
  };
}

/** Stable on server and client (no time-zone dependent formatting during hydration). */
function when(iso: string): string {
  return `${iso.slice(0, 19).replace("T", " ")} UTC`;
}

function pageHref(page: number, filter: { actor?: string; action?: string }): string {
  const params = new URLSearchParams();
  if (filter.actor) params.set("actor", filter.actor);
  if (filter.action) params.set("action", filter.action);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/admin/audit?${query}` : "/admin/audit";
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { rows, total, page, pageCount, actions, filter } = loaderData;
  return (
    <section className="max-w-6xl">
      <h1 className="text-3xl font-bold">Audit log</h1>
      <p className="mt-2 text-muted-foreground">
        {total === 0 ? "No entries." : `${total} entr${total === 1 ? "y" : "ies"}, newest first.`} Sign-ins, failed sign-ins and every staff
        change.
      </p>
      <Form method="get" className="mt-6 flex flex-wrap items-end gap-4" aria-label="Filter the audit log">
        <div className="grid gap-1">
          <Label htmlFor="audit-actor">Actor email</Label>
          <Input id="audit-actor" name="actor" type="search" defaultValue={filter.actor ?? ""} className="w-64" />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="audit-action">Action</Label>
          <select
            id="audit-action"
            name="action"
            defaultValue={filter.action ?? ""}
            className="h-9 w-56 rounded-md border border-input bg-transparent px-3 text-sm shadow-xs"
          >
            <option value="">All actions</option>
            {actions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit">Filter</Button>
        {filter.actor || filter.action ? (
          <Link to="/admin/audit" className="text-sm underline">
            Clear filters
          </Link>
        ) : null}
      </Form>
      <div className="mt-6 overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Audit log entries, newest first</caption>
          <thead>
            <tr className="border-b">
              <th scope="col" className="py-2 pr-4">
                Time
              </th>
              <th scope="col" className="py-2 pr-4">
                Actor
              </th>
              <th scope="col" className="py-2 pr-4">
                Action
              </th>
              <th scope="col" className="py-2 pr-4">
                Target
              </th>
              <th scope="col" className="py-2 pr-4">
                Summary
              </th>
              <th scope="col" className="py-2">
                IP
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} className="border-b align-top" data-testid="audit-row">
                <td className="py-2 pr-4 whitespace-nowrap">
                  <time dateTime={r.createdAt}>{when(r.createdAt)}</time>
                </td>
                <td className="py-2 pr-4 break-all">{r.actorEmail ?? "operator (CLI)"}</td>
                <td className="py-2 pr-4 font-mono">{r.action}</td>
                <td className="py-2 pr-4 break-all">{r.targetType ? `${r.targetType}${r.targetId ? ` ${r.targetId}` : ""}` : "—"}</td>
                <td className="py-2 pr-4 break-words">{r.summary}</td>
                <td className="py-2 whitespace-nowrap">{r.ip ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pageCount > 1 ? (
        <nav aria-label="Audit log pages" className="mt-6 flex items-center gap-4 text-sm">
          {page > 1 ? (
            <Link to={pageHref(page - 1, filter)} className="underline">
              Newer entries
            </Link>
          ) : null}
          <span>
            Page {page} of {pageCount}
          </span>
          {page < pageCount ? (
            <Link to={pageHref(page + 1, filter)} className="underline">
              Older entries
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
