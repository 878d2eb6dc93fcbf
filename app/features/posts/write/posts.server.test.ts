import { eq, inArray, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { createUser } from "~/features/users/users.server";
import type { Actor } from "~/lib/permissions";
import { z } from "zod";
import { queryRows } from "~/server/db/query-rows.server";
import { auditLog, blogMedia, blogPosts, postRedirects } from "~/server/db/schema.server";
import { ForbiddenError, UnauthorizedError, ValidationError } from "~/server/errors.server";
import { describeEachDatabase } from "../../../../tests/helpers/databases";
import { getFeaturedArticle } from "../read/home-posts.server";
import { bulkPostAction } from "./bulk-posts.server";
import {
  ADMIN_POSTS_PER_PAGE,
  createPost,
  deletePost,
  getPostBySlug,
  getReadablePost,
  listAdminPosts,
  listFeedPosts,
  listPublishedPosts,
  updatePost,
} from "./posts.server";

let n = 0;
async function actor(db: Parameters<typeof createUser>[0], role: "admin" | "moderator" | "user"): Promise<Actor> {
  n += 1;
  const u = await createUser(db, {
    email: `${role}${n}-${Date.now()}@posts.test`,
    password: "posts test pass phrase 9",
    roles: role === "user" ? [] : [role],
  });
  return { id: u.id, role };
}

const base = { content: "Some words here.", category: "Fitness", published: true };

describeEachDatabase("posts", (ctx) => {
  let admin: Actor;
  let mod: Actor;
  let mod2: Actor;
  beforeAll(async () => {
    admin = await actor(ctx.db, "admin");
    mod = await actor(ctx.db, "moderator");
    mod2 = await actor(ctx.db, "moderator");
  });

  it("makes the slug from the title and adds -2, -3 on clashes", async () => {
    const a = await createPost(ctx.db, mod, { ...base, title: "Morning Run: 5k!" });
    const b = await createPost(ctx.db, mod, { ...base, title: "morning run 5k", content: "other" });
    const c = await createPost(ctx.db, mod2, { ...base, title: "Morning -- Run 5K", content: "third" });
    expect([a.slug, b.slug, c.slug]).toEqual(["morning-run-5k", "morning-run-5k-2", "morning-run-5k-3"]);
  });

  it("never uses a slug that is one of our route words", async () => {
    expect((await createPost(ctx.db, mod, { ...base, title: "New" })).slug).toBe("new-2");
  });

  it("gives concurrent posts with the same title distinct slugs (unique index + retry)", async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => createPost(ctx.db, i % 2 ? mod : mod2, { ...base, title: "Race Day", content: `variant ${i}` })),
    );
    expect(new Set(results.map((r) => r.slug)).size).toBe(5);
    expect(results.map((r) => r.slug).sort()).toEqual(["race-day", "race-day-2", "race-day-3", "race-day-4", "race-day-5"]);
  });

  it("turns a double submit into one post", async () => {
    const input = { ...base, title: "Double Click", content: "same body" };
    const [one, two] = await Promise.all([createPost(ctx.db, mod, input), createPost(ctx.db, mod, input)]);
    expect(one.slug).toBe(two.slug);
    const rows = await ctx.db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.title, "Double Click"));
    expect(rows).toHaveLength(1);
  });

  it("refuses invalid input with field errors", async () => {
    const error = await createPost(ctx.db, mod, { ...base, title: "?!" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error instanceof ValidationError && error.fieldErrors?.title).toEqual([
      "Title must contain at least one letter or number (a-z, 0-9)",
    ]);
  });

  it("stores media in display order and replaces it on edit, keeping the slug", async () => {
    const created = await createPost(ctx.db, mod, {
      ...base,
      title: "With Media",
      media: [
        { mediaType: "youtube", mediaUrl: "https://youtu.be/dQw4w9WgXcQ", caption: "first" },
        { mediaType: "vimeo", mediaUrl: "https://vimeo.com/1" },
      ],
    });
    let post = await getReadablePost(ctx.db, created.slug, null);
    expect(post?.media.map((m) => m.mediaType)).toEqual(["youtube", "vimeo"]);
    await updatePost(ctx.db, mod2, created.slug, {
      ...base,
      title: "A Completely New Title",
      media: [
        { mediaType: "vimeo", mediaUrl: "https://vimeo.com/1" },
        { mediaType: "youtube", mediaUrl: "https://youtu.be/dQw4w9WgXcQ", caption: "now second" },
      ],
    });
    post = await getReadablePost(ctx.db, created.slug, null);
    expect(post?.title).toBe("A Completely New Title");
    expect(post?.slug).toBe("with-media");
    expect(post?.media.map((m) => [m.mediaType, m.caption])).toEqual([
      ["vimeo", null],
      ["youtube", "now second"],
    ]);
  });

  it("hides drafts from visitors and plain users, shows them to staff", async () => {
    const draft = await createPost(ctx.db, mod, { ...base, title: "Secret Draft", published: false });
    const reader = await actor(ctx.db, "user");
    expect(await getReadablePost(ctx.db, draft.slug, null)).toBeNull();
    expect(await getReadablePost(ctx.db, draft.slug, reader)).toBeNull();
    expect((await getReadablePost(ctx.db, draft.slug, mod2))?.title).toBe("Secret Draft");
    const listing = await listPublishedPosts(ctx.db, "Fitness", 1);
    expect(listing.posts.map((p) => p.slug)).not.toContain(draft.slug);
    expect((await listFeedPosts(ctx.db, null)).map((p) => p.slug)).not.toContain(draft.slug);
    const adminList = await listAdminPosts(ctx.db, "drafts");
    expect(adminList.posts.map((p) => p.slug)).toContain(draft.slug);
    expect(adminList.counts.all).toBe(adminList.counts.published + adminList.counts.drafts);
  });

  it("Blog Management narrows by title (any case, % and _ literal) and category, and counts what it shows", async () => {
    const tag = `Zq${Date.now()}`;
    const a = await createPost(ctx.db, mod, { ...base, category: "Fun", title: `${tag} 100% sure`, published: false });
    const b = await createPost(ctx.db, mod, { ...base, category: "Faith", title: `${tag} under_score` });
    const byTitle = await listAdminPosts(ctx.db, "all", {}, { title: tag.toLowerCase() });
    expect(byTitle.posts.map((p) => p.slug).sort()).toEqual([a.slug, b.slug].sort());
    expect([byTitle.prevCursor, byTitle.nextCursor]).toEqual([null, null]);
    expect((await listAdminPosts(ctx.db, "all", {}, { title: `${tag} 100%` })).posts.map((p) => p.slug)).toEqual([a.slug]);
    expect((await listAdminPosts(ctx.db, "all", {}, { title: `${tag} 1_0` })).posts).toEqual([]);
    expect((await listAdminPosts(ctx.db, "all", {}, { title: tag, category: "Faith" })).posts.map((p) => p.slug)).toEqual([b.slug]);
    expect((await listAdminPosts(ctx.db, "drafts", {}, { title: tag })).posts.map((p) => p.slug)).toEqual([a.slug]);
  });

  it("Blog Management sorts by title (ignoring case), status (drafts first) and date, newest update by default", async () => {
    const tag = `Srt${Date.now()}`;
    const c = await createPost(ctx.db, mod, { ...base, title: `${tag} c published first` });
    const a = await createPost(ctx.db, mod, { ...base, title: `${tag} A draft`, published: false });
    const b = await createPost(ctx.db, mod, { ...base, title: `${tag} b published last` });
    const slugs = async (sort?: "updated" | "date" | "title" | "status") =>
      (await listAdminPosts(ctx.db, "all", {}, { title: tag, sort })).posts.map((p) => p.slug);
    expect(await slugs()).toEqual([b.slug, a.slug, c.slug]);
    expect(await slugs("title")).toEqual([a.slug, b.slug, c.slug]);
    expect(await slugs("status")).toEqual([a.slug, b.slug, c.slug]);
    expect(await slugs("date")).toEqual([b.slug, a.slug, c.slug]);
    await updatePost(ctx.db, mod, c.slug, { ...base, title: `${tag} c published first`, content: "Edited words." });
    expect(await slugs()).toEqual([c.slug, b.slug, a.slug]);
    expect(await slugs("date")).toEqual([b.slug, a.slug, c.slug]);
  });

  it("Blog Management pages by keyset in every order: each post once, ties kept apart, back again, stale cursors restart", async () => {
    const tag = `Kst${Date.now()}`;
    const same = new Date(Date.UTC(2001, 0, 1, 12, 0, 0, 123));
    // 120 posts (more than two pages): many share one update time, to the microsecond, so only the id orders them.
    const rows = Array.from({ length: ADMIN_POSTS_PER_PAGE * 2 + 20 }, (_, i) => ({
      title: `${tag} ${String.fromCharCode(97 + (i % 26))}${i}`,
      slug: `${tag.toLowerCase()}-${i}`,
      content: "Words.",
      category: "Fun" as const,
      published: i % 3 !== 0,
      publishedAt: i % 3 !== 0 ? new Date(same.getTime() - (i % 7) * 60_000) : null,
      scheduledAt: i % 6 === 0 ? new Date(same.getTime() + i * 60_000) : null,
      updatedAt: i % 2 === 0 ? same : new Date(same.getTime() - i * 1000),
    }));
    await ctx.db.insert(blogPosts).values(rows);
    await ctx.db.execute(
      sql`update blog_posts set updated_at = updated_at + interval '7 microseconds' where slug like ${`${tag.toLowerCase()}-%`} and updated_at = ${same}`,
    );
    for (const sort of ["updated", "date", "title", "status"] as const) {
      const narrow = { title: tag, sort };
      const pages: string[][] = [];
      let position: { after: string } | Record<string, never> = {};
      for (;;) {
        const listed = await listAdminPosts(ctx.db, "all", position, narrow);
        expect(listed.prevCursor === null).toBe(pages.length === 0);
        pages.push(listed.posts.map((p) => p.id));
        if (!listed.nextCursor) break;
        expect(listed.nextCursor).toBe(listed.posts.at(-1)?.id);
        position = { after: listed.nextCursor };
      }
      expect(pages.map((p) => p.length)).toEqual([ADMIN_POSTS_PER_PAGE, ADMIN_POSTS_PER_PAGE, 20]);
      const walked = pages.flat();
      expect(new Set(walked).size).toBe(rows.length);
      // The same order as one unpaged read in the order's own terms (the database sorts, not this test).
      const keys = {
        updated: sql`updated_at desc, id desc`,
        date: sql`coalesce(published_at, created_at) desc, id desc`,
        title: sql`lower(title), id`,
        status: sql`published, scheduled_at is not null, scheduled_at nulls last, updated_at desc, id desc`,
      }[sort];
      const all = await queryRows(
        ctx.db,
        sql`select id from blog_posts where title like ${`${tag} %`} order by ${keys}`,
        z.object({ id: z.string() }),
      );
      expect(walked, sort).toEqual(all.map((r) => r.id));
      // Previous from the last page gives the middle page, and before the middle page is the first one.
      const lastFirst = pages[2]?.[0] ?? "";
      const middle = await listAdminPosts(ctx.db, "all", { before: lastFirst }, narrow);
      expect(middle.posts.map((p) => p.id)).toEqual(pages[1]);
      const first = await listAdminPosts(ctx.db, "all", { before: middle.prevCursor ?? "" }, narrow);
      expect(first.posts.map((p) => p.id)).toEqual(pages[0]);
      expect(first.prevCursor).toBeNull();
    }
    const gone = "00000000-0000-4000-8000-000000000000";
    expect((await listAdminPosts(ctx.db, "all", { after: gone }, { title: tag })).posts).toHaveLength(ADMIN_POSTS_PER_PAGE);
  });

  it("carries the newest 20 published posts in a feed", async () => {
    const start = Date.UTC(2030, 0, 1);
    for (let i = 0; i < 22; i++) {
      await ctx.db.insert(blogPosts).values({
        title: `Feed ${i}`,
        slug: `feed-${i}`,
        content: "x",
        category: "Fun",
        published: true,
        createdAt: new Date(start + i * 60_000),
        publishedAt: new Date(start + i * 60_000),
      });
    }
    const feed = await listFeedPosts(ctx.db, "Fun");
    expect(feed).toHaveLength(20);
    expect(feed[0]?.slug).toBe("feed-21");
    expect(feed[19]?.slug).toBe("feed-2");
  });

  it("lists a category newest first, 12 a page", async () => {
    for (let i = 0; i < 13; i++) await createPost(ctx.db, mod, { ...base, category: "Family", title: `Family ${i}` });
    const first = await listPublishedPosts(ctx.db, "Family", 1);
    const second = await listPublishedPosts(ctx.db, "Family", 2);
    expect(first.posts).toHaveLength(12);
    expect(first.pageCount).toBe(2);
    expect(second.posts).toHaveLength(1);
    expect(first.posts[0]?.title).toBe("Family 12");
    expect(second.posts[0]?.title).toBe("Family 0");
  });

  it("refuses to create or update for a plain user (403) or nobody (401), whatever the input", async () => {
    const plain: Actor = { id: "plain-user", role: "user" };
    const before = await ctx.db.select({ id: blogPosts.id, title: blogPosts.title }).from(blogPosts);
    await expect(createPost(ctx.db, plain, { ...base, title: "Not allowed" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createPost(ctx.db, plain, {})).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createPost(ctx.db, null, { ...base, title: "Not allowed" })).rejects.toBeInstanceOf(UnauthorizedError);
    const existing = await createPost(ctx.db, mod, { ...base, title: "Stays as it is" });
    await expect(updatePost(ctx.db, plain, existing.slug, { ...base, title: "Changed" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(deletePost(ctx.db, null, existing.slug)).rejects.toBeInstanceOf(UnauthorizedError);
    const after = await ctx.db.select({ id: blogPosts.id, title: blogPosts.title }).from(blogPosts).orderBy(blogPosts.id);
    const expected = [...before, { id: existing.id, title: "Stays as it is" }].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    expect(after).toEqual(expected);
  });

  it("lets the admin and the author delete, not another moderator; media rows go too", async () => {
    const post = await createPost(ctx.db, mod, {
      ...base,
      title: "Deletable",
      media: [{ mediaType: "vimeo", mediaUrl: "https://vimeo.com/2" }],
    });
    await expect(deletePost(ctx.db, mod2, post.slug)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(deletePost(ctx.db, { id: "nobody", role: "user" }, post.slug)).rejects.toBeInstanceOf(ForbiddenError);
    await deletePost(ctx.db, mod, post.slug);
    expect(await ctx.db.select().from(blogMedia).where(eq(blogMedia.postId, post.id))).toHaveLength(0);
    const other = await createPost(ctx.db, mod, { ...base, title: "Admin Deletes" });
    expect(await deletePost(ctx.db, admin, other.slug)).toEqual({ category: "Fitness" });
    expect(await getReadablePost(ctx.db, other.slug, admin)).toBeNull();
  });

  it("'Feature on home page' sets the featured flag the home page's featured article orders by; unsetting it lets go", async () => {
    const featured = await createPost(ctx.db, mod, { ...base, title: `Featured pick ${Date.now()}`, featured: true });
    await createPost(ctx.db, mod, { ...base, title: `Newer but plain ${Date.now()}` });
    expect((await getPostBySlug(ctx.db, featured.slug))?.featured).toBe(true);
    expect((await getFeaturedArticle(ctx.db))?.slug).toBe(featured.slug);
    await updatePost(ctx.db, mod, featured.slug, { ...base, title: "Featured pick", featured: false });
    expect((await getPostBySlug(ctx.db, featured.slug))?.featured).toBe(false);
    expect((await getFeaturedArticle(ctx.db))?.slug).not.toBe(featured.slug);
  });

  const unpublished = { ...base, published: false };
  const stateOf = async (ids: string[]) =>
    (
      await ctx.db
        .select({ id: blogPosts.id, published: blogPosts.published, category: blogPosts.category })
        .from(blogPosts)
        .where(inArray(blogPosts.id, ids))
    ).sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));

  it("publishes, unpublishes and moves each selected post, keeping each post's rules", async () => {
    const a = await createPost(ctx.db, mod, { ...unpublished, title: "Bulk one" });
    const b = await createPost(ctx.db, mod, { ...unpublished, title: "Bulk two" });
    // Going live needs alt text on its images: this one is reported, the others still change.
    const c = await createPost(ctx.db, mod, { ...unpublished, title: "Bulk no alt", featuredImageUrl: "https://example.com/a.jpg" });
    const published = await bulkPostAction(ctx.db, mod2, { action: "publish", ids: [a.id, b.id, c.id] });
    expect(published.done).toBe(2);
    expect(published.skipped).toEqual([{ title: "Bulk no alt", reason: expect.stringMatching(/alt/i) }]);
    expect((await stateOf([a.id, b.id, c.id])).map((p) => p.published)).toEqual([true, true, false]);

    const moved = await bulkPostAction(ctx.db, mod2, { action: "move", ids: [a.id, b.id], category: "Fun" });
    expect(moved).toEqual({ done: 2, skipped: [] });
    expect((await stateOf([a.id, b.id])).map((p) => p.category)).toEqual(["Fun", "Fun"]);
    // A moved post keeps its old address as a redirect, as a single edit does.
    const redirects = await ctx.db.select({ category: postRedirects.category }).from(postRedirects).where(eq(postRedirects.postId, a.id));
    expect(redirects.map((r) => r.category)).toEqual(["Fitness"]);

    expect(await bulkPostAction(ctx.db, mod2, { action: "unpublish", ids: [a.id] })).toEqual({ done: 1, skipped: [] });
    expect((await stateOf([a.id, b.id])).map((p) => p.published)).toEqual([false, true]);
  });

  it("deletes only what the actor may delete (admins any post, moderators their own) and audits each", async () => {
    const mine = await createPost(ctx.db, mod, { ...unpublished, title: "Bulk mine" });
    const theirs = await createPost(ctx.db, mod2, { ...unpublished, title: "Bulk theirs" });
    const result = await bulkPostAction(ctx.db, mod, { action: "delete", ids: [mine.id, theirs.id] });
    expect(result.done).toBe(1);
    expect(result.skipped).toEqual([{ title: "Bulk theirs", reason: "Only an admin or the post's author may delete it." }]);
    expect((await stateOf([mine.id, theirs.id])).map((p) => p.id)).toEqual([theirs.id]);
    const audited = await ctx.db.select({ targetId: auditLog.targetId }).from(auditLog).where(eq(auditLog.action, "post.delete"));
    expect(audited.map((r) => r.targetId)).toContain(mine.id);
    expect(await bulkPostAction(ctx.db, admin, { action: "delete", ids: [theirs.id] })).toEqual({ done: 1, skipped: [] });
    // Gone meanwhile: reported, not an error.
    expect((await bulkPostAction(ctx.db, admin, { action: "delete", ids: [theirs.id] })).skipped).toHaveLength(1);
  });

  it("refuses bad input with a message and readers outright", async () => {
    await expect(bulkPostAction(ctx.db, mod, { action: "publish", ids: [] })).rejects.toBeInstanceOf(ValidationError);
    await expect(bulkPostAction(ctx.db, mod, { action: "publish", ids: ["not-an-id"] })).rejects.toBeInstanceOf(ValidationError);
    await expect(bulkPostAction(ctx.db, mod, { action: "move", ids: [crypto.randomUUID()] })).rejects.toThrow(
      "Choose the category to move the posts to",
    );
    await expect(bulkPostAction(ctx.db, mod, { action: "explode", ids: [crypto.randomUUID()] })).rejects.toBeInstanceOf(ValidationError);
    const reader = await actor(ctx.db, "user");
    await expect(bulkPostAction(ctx.db, reader, { action: "publish", ids: [crypto.randomUUID()] })).rejects.toBeInstanceOf(ForbiddenError);
  });
});
