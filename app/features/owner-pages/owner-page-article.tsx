import { PostBody } from "~/features/posts/read/post-body";

/** An owner's page as visitors read it: the title, then the content the posts' renderer made at save. */
export function OwnerPageArticle({ page }: { page: { title: string; html: string; published: boolean } }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-16">
      {page.published ? null : (
        <p
          role="note"
          className="mb-6 rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950/40 dark:text-amber-50"
        >
          Draft: only people who edit pages see it. Visitors get the not-found page until it is published.
        </p>
      )}
      <h1 className="text-4xl font-bold tracking-tight">{page.title}</h1>
      <PostBody html={page.html} className="mt-8" />
    </article>
  );
}
