import { formatDistanceToNow } from "date-fns";
import { Link, useNavigation } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { requireStaffPage } from "~/features/posts/page-guards.server";
import { ADMIN_FILTERS, adminFilterFrom, type AdminFilter } from "~/features/posts/write/admin-filters";
import { listAdminPosts } from "~/features/posts/write/posts.server";
import { CATEGORIES, categoryPath, postPath } from "~/lib/categories";
import { cn } from "~/lib/utils";
import { formatInZone } from "~/lib/time-zone";
import { getDb } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { withRouteErrors } from "~/server/errors.server";
import { pageParam } from "~/server/pagination.server";
import type { Route } from "./+types/blog";

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaffPage(request);
  const filter = adminFilterFrom(new URL(request.url));
  const result = await withRouteErrors(() => listAdminPosts(getDb(), filter, pageParam(request)));
  const now = new Date();
  const timeZone = getEnv().SITE_TIME_ZONE;
  return {
    filter,
    counts: result.counts,
    page: result.page,
    pageCount: result.pageCount,
    posts: result.posts.map((p) => ({
      id: p.id,
      title: p.title,
      category: p.category,
      slug: p.slug,
      published: p.published,
      scheduledFor: p.scheduledAt && !p.published ? formatInZone(p.scheduledAt, timeZone) : null,
      scheduledAt: p.scheduledAt?.toISOString() ?? null,
      // Computed on the server so the page and its hydration agree.
      updated: `${formatDistanceToNow(p.updatedAt > now ? now : p.updatedAt)} ago`,
      updatedAt: p.updatedAt.toISOString(),
    })),
  };
}

export function meta() {
  return [{ title: "Blog Management" }, { name: "robots", content: "noindex" }];
}

const FILTER_LABEL: Record<AdminFilter, string> = { all: "All", published: "Published", drafts: "Drafts", scheduled: "Scheduled" };

function hrefFor(filter: AdminFilter, page = 1): string {
  const params = new URLSearchParams();
  if (filter !== "all") params.set("filter", filter);
  if (page > 1) params.set("page", String(page));
  const q = params.toString();
  return q ? `/admin/blog?${q}` : "/admin/blog";
}

export default function BlogManagement({ loaderData }: Route.ComponentProps) {
  const { filter, counts, posts, page, pageCount } = loaderData;
  const navigation = useNavigation();
  // SPEC §2: 'Loading posts...' while the list loads (a filter or page change).
  const loading = navigation.state === "loading" && navigation.location.pathname === "/admin/blog";
  return (
    <section className="max-w-5xl">
      <h1 className="text-3xl font-bold">Blog Management</h1>
      <div role="group" className="mt-6 flex flex-wrap gap-2" aria-label="Create a post in a category">
        {CATEGORIES.map((c) => (
          <Button key={c} asChild variant="outline" size="sm">
            <Link to={`${categoryPath(c)}/new`}>{c}</Link>
          </Button>
        ))}
      </div>
      <nav aria-label="Filter posts" className="mt-6 flex gap-2">
        {ADMIN_FILTERS.map((f) => (
          <Link
            key={f}
            to={hrefFor(f)}
            aria-current={f === filter ? "page" : undefined}
            className={cn("rounded-md border px-3 py-1.5 text-sm", f === filter ? "bg-primary text-primary-foreground" : "hover:bg-accent")}
          >
            {FILTER_LABEL[f]} ({counts[f]})
          </Link>
        ))}
      </nav>
      {loading ? (
        <p role="status" className="mt-10 text-center text-muted-foreground">
          Loading posts...
        </p>
      ) : posts.length === 0 ? (
        <p className="mt-10 text-center text-muted-foreground">No posts found. Create your first post to get started!</p>
      ) : (
        <ul className="mt-6 divide-y rounded-lg border">
          {posts.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center gap-3 p-4">
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-2">
                  <h2 className="font-semibold [overflow-wrap:anywhere]">{p.title}</h2>
                  <Badge variant={p.published ? "default" : p.scheduledFor ? "secondary" : "outline"}>
                    {p.published ? "Published" : p.scheduledFor ? "Scheduled" : "Draft"}
                  </Badge>
                </div>
                <p className="mt-1 text-sm text-muted-foreground">
                  {p.category} · Updated <time dateTime={p.updatedAt}>{p.updated}</time>
                  {p.scheduledFor && p.scheduledAt ? (
                    <>
                      {" "}
                      · Publishes <time dateTime={p.scheduledAt}>{p.scheduledFor}</time>
                    </>
                  ) : null}
                </p>
              </div>
              <div className="flex gap-2">
                {p.published ? (
                  <Button asChild variant="ghost" size="sm">
                    <Link to={postPath(p.category, p.slug)} aria-label={`View ${p.title}`}>
                      View
                    </Link>
                  </Button>
                ) : (
                  // The post page shows drafts and scheduled posts to staff only (getReadablePost).
                  <Button asChild variant="ghost" size="sm">
                    <Link to={postPath(p.category, p.slug)} aria-label={`Preview ${p.title}`}>
                      Preview
                    </Link>
                  </Button>
                )}
                <Button asChild variant="outline" size="sm">
                  <Link to={`${postPath(p.category, p.slug)}/edit`} aria-label={`Edit ${p.title}`}>
                    Edit
                  </Link>
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {pageCount > 1 ? (
        <nav aria-label="Pagination" className="mt-6 flex items-center justify-center gap-4">
          {page > 1 ? <Link to={hrefFor(filter, page - 1)}>Previous</Link> : null}
          <span className="text-sm text-muted-foreground">
            Page {page} of {pageCount}
          </span>
          {page < pageCount ? <Link to={hrefFor(filter, page + 1)}>Next</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}
