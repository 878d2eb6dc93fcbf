import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { postPath } from "~/lib/categories";
import type { AdminPostsView } from "./admin-posts.server";

/** The admin's post list: title, state, category, dates, and View (or Preview) and Edit. */
export function AdminPostList({ posts }: { posts: AdminPostsView["posts"] }) {
  return (
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
  );
}
