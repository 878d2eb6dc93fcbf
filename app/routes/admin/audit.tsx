import { Form, Link } from "react-router";
import { Pager } from "~/components/pager";
import { Timestamp } from "~/components/timestamp";
import { Button } from "~/components/ui/button";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { getSessionUser } from "~/features/auth/session.server";
import { listAudit } from "~/server/audit.server";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { pageParam } from "~/server/pagination.server";
import type { Route } from "./+types/audit";

export function meta() {
  return [{ title: "Audit log — Admin" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await getSessionUser(request);
  const params = new URL(request.url).searchParams;
  const found = await withPageFailures(() =>
    listAudit(getDb(), actor, { actor: params.get("actor") ?? undefined, action: params.get("action") ?? undefined }, pageParam(request)),
  );
  return {
    ...found,
    rows: found.rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
  };
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
      <Table containerClassName="mt-6">
        <TableCaption className="sr-only">Audit log entries, newest first</TableCaption>
        <TableHeader>
          <TableRow>
            {["Time", "Actor", "Action", "Target", "Summary", "IP"].map((column) => (
              <TableHead key={column}>{column}</TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.id} className="align-top" data-testid="audit-row">
              <TableCell className="whitespace-nowrap">
                <Timestamp iso={r.createdAt} format="utc-seconds" />
              </TableCell>
              <TableCell className="break-all">{r.actorEmail ?? "operator (CLI)"}</TableCell>
              <TableCell className="font-mono">{r.action}</TableCell>
              <TableCell className="break-all">{r.targetType ? `${r.targetType}${r.targetId ? ` ${r.targetId}` : ""}` : "—"}</TableCell>
              <TableCell className="break-words">{r.summary}</TableCell>
              <TableCell className="whitespace-nowrap">{r.ip ?? "—"}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Pager
        label="Audit log pages"
        page={page}
        pageCount={pageCount}
        href={(n) => pageHref(n, filter)}
        prevLabel="Newer entries"
        nextLabel="Older entries"
      />
    </section>
  );
}
