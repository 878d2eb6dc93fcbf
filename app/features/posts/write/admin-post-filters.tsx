import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { CATEGORIES } from "~/lib/categories";
import { cn } from "~/lib/utils";
import { ADMIN_FILTERS, ADMIN_SEARCH_MAX, ADMIN_SORTS, type AdminFilter, type AdminSort } from "./admin-filters";

export interface AdminNarrowing {
  title: string;
  category: string | null;
  sort: AdminSort;
}

const FILTER_LABEL: Record<AdminFilter, string> = { all: "All", published: "Published", drafts: "Drafts", scheduled: "Scheduled" };

const SORT_LABEL: Record<AdminSort, string> = {
  updated: "Recently updated",
  date: "Date",
  title: "Title (A–Z)",
  status: "Status",
};

/** The list's address: state filter, title search, category and order kept across filter links and pages. */
export function adminPostsHref(
  filter: AdminFilter,
  narrow: AdminNarrowing,
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

/** Blog Management's search form (title, category, order) and its state filters with their counts. */
export function AdminPostFilters({
  filter,
  counts,
  narrow,
}: {
  filter: AdminFilter;
  counts: Record<AdminFilter, number>;
  narrow: AdminNarrowing;
}) {
  const { title, category, sort } = narrow;
  return (
    <>
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
            to={adminPostsHref(f, narrow)}
            aria-current={f === filter ? "page" : undefined}
            className={cn("rounded-md border px-3 py-1.5 text-sm", f === filter ? "bg-primary text-primary-foreground" : "hover:bg-accent")}
          >
            {FILTER_LABEL[f]} ({counts[f]})
          </Link>
        ))}
      </nav>
    </>
  );
}
