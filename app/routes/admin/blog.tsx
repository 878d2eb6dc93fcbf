import { Pager } from "~/components/pager";
import { Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { requireStaff } from "~/features/auth/guards.server";
import { ADMIN_FILTERS, adminFilterFrom, type AdminFilter } from "~/features/posts/write/admin-filters";
import { CATEGORIES, categoryPath } from "~/lib/categories";
import { cn } from "~/lib/utils";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { pageParam } from "~/server/pagination.server";
import { adminPostsView } from "~/features/posts/write/admin-posts.server";
import { AdminPostList } from "~/features/posts/write/admin-post-list";
import type { Route } from "./+types/blog";

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request);
  const filter = adminFilterFrom(new URL(request.url));
  return withPageFailures(() => adminPostsView(getDb(), filter, pageParam(request)));
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
        <AdminPostList posts={posts} />
      )}
      <Pager
        label="Pagination"
        page={page}
        pageCount={pageCount}
        href={(n) => hrefFor(filter, n)}
        prevLabel="Previous"
        nextLabel="Next"
        variant="public"
        className="mt-6"
      />
    </section>
  );
}
