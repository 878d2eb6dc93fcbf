import { Pager } from "~/components/pager";
import { Form, Link, useNavigation } from "react-router";
import { NewPostMenu } from "~/features/admin/new-post-menu";
import { handleAdminForm } from "~/features/admin/admin-form.server";
import { requireStaff } from "~/features/auth/guards.server";
import type { BulkAction } from "~/features/posts/write/bulk-actions";
import { bulkPostAction } from "~/features/posts/write/bulk-posts.server";
import {
  ADMIN_FILTERS,
  ADMIN_SEARCH_MAX,
  adminFilterFrom,
  adminNarrowingFrom,
  adminPositionFrom,
  adminSortFrom,
  ADMIN_SORTS,
  type AdminFilter,
  type AdminSort,
} from "~/features/posts/write/admin-filters";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { CATEGORIES } from "~/lib/categories";
import { cn } from "~/lib/utils";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { adminPostsView } from "~/features/posts/write/admin-posts.server";
import { AdminPostList } from "~/features/posts/write/admin-post-list";
import type { Route } from "./+types/blog";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireStaff(request);
  const url = new URL(request.url);
  return withPageFailures(() =>
    adminPostsView(getDb(), user, adminFilterFrom(url), adminPositionFrom(url), { ...adminNarrowingFrom(url), sort: adminSortFrom(url) }),
  );
}

/** Bulk actions and each row's Delete (a bulk action of one post); each post is authorized on its own. */
export async function action({ request }: Route.ActionArgs) {
  return handleAdminForm(request, "posts", {
    bulk: async ({ db, actor, formData }) => {
      const category = formData.get("category");
      const input = { action: formData.get("bulkAction"), ids: formData.getAll("ids"), category: category || undefined };
      const result = await bulkPostAction(db, actor, input);
      return { ok: true as const, action: input.action as BulkAction, ...result };
    },
  });
}

export function meta() {
  return [{ title: "Blog Management" }, { name: "robots", content: "noindex" }];
}

const FILTER_LABEL: Record<AdminFilter, string> = { all: "All", published: "Published", drafts: "Drafts", scheduled: "Scheduled" };

const SORT_LABEL: Record<AdminSort, string> = {
  updated: "Recently updated",
  date: "Date",
  title: "Title (A–Z)",
  status: "Status",
};

/** The list's address: state filter, title search, category and order kept across filter links and pages. */
function hrefFor(
  filter: AdminFilter,
  narrow: { title: string; category: string | null; sort: AdminSort },
  position: { after: string } | { before: string } | null = null,
): string {
  const params = new URLSearchParams();
  if (filter !== "all") params.set("filter", filter);
  if (narrow.title) params.set("q", narrow.title);
  if (narrow.category) params.set("category", narrow.category);
  if (narrow.sort !== "updated") params.set("sort", narrow.sort);
  if (position && "after" in position) params.set("after", position.after);
  if (position && "before" in position) params.set("before", position.before);
  const q = params.toString();
  return q ? `/admin/blog?${q}` : "/admin/blog";
}

export default function BlogManagement({ loaderData }: Route.ComponentProps) {
  const { filter, counts, posts, prevCursor, nextCursor, title, category, sort } = loaderData;
  const narrow = { title, category, sort };
  const navigation = useNavigation();
  // SPEC §2: 'Loading posts...' while the list loads (a filter or page change).
  const loading = navigation.state === "loading" && navigation.location.pathname === "/admin/blog";
  return (
    <section className="max-w-5xl">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold">Blog Management</h1>
        <NewPostMenu />
      </div>
      <Form method="get" role="search" aria-label="Find posts" className="mt-6 flex flex-wrap items-end gap-3">
        {filter !== "all" ? <input type="hidden" name="filter" value={filter} /> : null}
        <div className="grid gap-1.5">
          <Label htmlFor="admin-posts-q">Search by title</Label>
          <Input key={title} id="admin-posts-q" name="q" type="search" defaultValue={title} maxLength={ADMIN_SEARCH_MAX} className="w-64" />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="admin-posts-category">Category</Label>
          <select
            id="admin-posts-category"
            name="category"
            key={category ?? ""}
            defaultValue={category ?? ""}
            className="h-9 rounded-md border border-input bg-background px-3 text-sm"
          >
            <option value="">All categories</option>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="admin-posts-sort">Sort by</Label>
          <select
            id="admin-posts-sort"
            name="sort"
            key={sort}
            defaultValue={sort}
            className="h-9 rounded-md border border-input bg-background px-3 text-sm"
          >
            {ADMIN_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABEL[s]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="outline">
          Search
        </Button>
      </Form>
      <nav aria-label="Filter posts" className="mt-4 flex flex-wrap gap-2">
        {ADMIN_FILTERS.map((f) => (
          <Link
            key={f}
            to={hrefFor(f, narrow)}
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
      ) : (
        <AdminPostList
          posts={posts}
          empty={<p className="mt-10 text-center text-muted-foreground">No posts found. Create your first post to get started!</p>}
        />
      )}
      <Pager
        label="Pagination"
        prevHref={prevCursor ? hrefFor(filter, narrow, { before: prevCursor }) : undefined}
        nextHref={nextCursor ? hrefFor(filter, narrow, { after: nextCursor }) : undefined}
        prevLabel="Previous"
        nextLabel="Next"
        variant="public"
        className="mt-6"
      />
    </section>
  );
}
