import { useNavigation } from "react-router";
import { Pager } from "~/components/pager";
import { NewPostMenu } from "~/features/admin/new-post-menu";
import { handleAdminForm } from "~/features/admin/admin-form.server";
import { requireStaff } from "~/features/auth/guards.server";
import { adminFilterFrom, adminNarrowingFrom, adminPositionFrom, adminSortFrom } from "~/features/posts/write/admin-filters";
import { AdminPostFilters, adminPostsHref } from "~/features/posts/write/admin-post-filters";
import { AdminPostList } from "~/features/posts/write/admin-post-list";
import { adminPostsView } from "~/features/posts/write/admin-posts.server";
import type { BulkAction } from "~/features/posts/write/bulk-actions";
import { bulkPostAction } from "~/features/posts/write/bulk-posts.server";
import { postFiguresShown, viewsOfPaths } from "~/features/analytics/reports.server";
import { postPath } from "~/lib/categories";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import type { Route } from "./+types/blog";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireStaff(request);
  const url = new URL(request.url);
  const view = await withPageFailures(() =>
    adminPostsView(getDb(), user, adminFilterFrom(url), adminPositionFrom(url), { ...adminNarrowingFrom(url), sort: adminSortFrom(url) }),
  );
  // Each published post's views at its address over the last 30 days, for those who may read the statistics.
  let views: Record<string, number> | null = null;
  if (postFiguresShown(user)) {
    const published = view.posts.filter((p) => p.published).map((p) => ({ id: p.id, path: postPath(p.category, p.slug) }));
    const byPath = await viewsOfPaths(
      getDb(),
      published.map((p) => p.path),
    );
    views = Object.fromEntries(published.map((p) => [p.id, byPath.get(p.path) ?? 0]));
  }
  return { ...view, views };
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

export default function BlogManagement({ loaderData }: Route.ComponentProps) {
  const { filter, counts, posts, prevCursor, nextCursor, title, category, sort, views } = loaderData;
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
      <AdminPostFilters filter={filter} counts={counts} narrow={narrow} />
      {loading ? (
        <p role="status" className="mt-10 text-center text-muted-foreground">
          Loading posts...
        </p>
      ) : (
        <AdminPostList
          posts={posts}
          views={views}
          empty={<p className="mt-10 text-center text-muted-foreground">No posts found. Create your first post to get started!</p>}
        />
      )}
      <Pager
        label="Pagination"
        prevHref={prevCursor ? adminPostsHref(filter, narrow, { before: prevCursor }) : undefined}
        nextHref={nextCursor ? adminPostsHref(filter, narrow, { after: nextCursor }) : undefined}
        prevLabel="Previous"
        nextLabel="Next"
        variant="public"
        className="mt-6"
      />
    </section>
  );
}
