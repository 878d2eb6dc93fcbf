import { eq, sql } from "drizzle-orm";
import { afterEach, expect, it } from "vitest";
import {
  getReadablePost,
  getPostBySlug,
  listAdminPosts,
  listFeedPosts,
  listPublishedPosts,
  createPost,
  updatePost,
  deletePost,
} from "./posts.server";
import { getPostStats } from "../read/post-counts.server";
import { listRevisions } from "./revisions.server";
import { publishJobKey, publishPostJob } from "./scheduling.server";
import { getFeaturedArticle, listPublishedPostsForSitemap } from "../read/home-posts.server";
import { POST_MESSAGES } from "./post-schema";
import { readContentVersion } from "~/server/content-version.server";
import { blogPosts, jobs, postRevisions } from "~/server/db/schema.server";
import { resetEnvForTests } from "~/server/env.server";
import { JobRunner } from "~/server/jobs/runner.server";
import { describeEachDatabase } from "../../../../tests/helpers/databases";
import { makeUser } from "../../../../tests/helpers/factories";
import { useSecondHandle } from "../../../../tests/helpers/second-handle";

const base = { content: "Body.", category: "Fitness" as const, published: false };
let n = 0;
const title = (label: string) => `${label} ${Date.now()}-${++n}`;

describeEachDatabase("scheduling, published_at, conflicts and revisions", (ctx) => {
  const second = useSecondHandle(ctx);
  const runners: JobRunner[] = [];
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
    delete process.env.POST_REVISIONS_KEEP;
    resetEnvForTests();
  });
  const admin = async () => (await makeUser(ctx.db, { role: "admin" })).actor;
  /** Makes the post's publish job due now, as if its time had come (the handler checks the time in the payload). */
  const makeDue = (key: string) =>
    ctx.db
      .update(jobs)
      .set({ runAt: sql`now()` })
      .where(eq(jobs.dedupeKey, key));

  it("keeps a scheduled post from visitors until its job runs, then publishes it exactly once across two instances", async () => {
    const actor = await admin();
    const at = new Date(Date.now() + 3_600_000);
    const created = await createPost(ctx.db, actor, { ...base, title: title("Scheduled"), publishAt: at });
    const before = await getPostBySlug(ctx.db, created.slug);
    expect(before).toMatchObject({ published: false, scheduledAt: at });
    expect(await getReadablePost(ctx.db, created.slug, null)).toBeNull();
    expect((await listPublishedPosts(ctx.db, "Fitness", 1)).posts.map((p) => p.slug)).not.toContain(created.slug);
    expect((await listFeedPosts(ctx.db, null)).map((p) => p.slug)).not.toContain(created.slug);
    expect((await listPublishedPostsForSitemap(ctx.db)).map((p) => p.slug)).not.toContain(created.slug);
    expect((await getFeaturedArticle(ctx.db))?.slug).not.toBe(created.slug);
    expect((await getPostStats(ctx.db)).scheduled).toBeGreaterThanOrEqual(1);
    const admins = await listAdminPosts(ctx.db, "scheduled");
    expect(admins.posts.map((p) => p.slug)).toEqual([created.slug]);
    expect(admins.counts.scheduled).toBe(1);
    expect((await listAdminPosts(ctx.db, "drafts")).posts.map((p) => p.slug)).not.toContain(created.slug);

    const key = publishJobKey(created.id, at);
    const [job] = await ctx.db.select().from(jobs).where(eq(jobs.dedupeKey, key));
    expect(job).toMatchObject({ kind: "posts.publish", state: "pending", runAt: at });

    // Not due yet: nothing runs.
    const one = new JobRunner({ database: () => ctx.database, tasks: [], pollMs: 60_000, kinds: [publishPostJob.kind] });
    const two = new JobRunner({ database: second, tasks: [], pollMs: 60_000, kinds: [publishPostJob.kind] });
    runners.push(one, two);
    expect(await one.drain()).toBe(0);

    const v0 = await readContentVersion(ctx.db);
    await makeDue(key);
    // Delivered twice (a redelivery after a lost lease), on two instances at once: published once.
    await ctx.db
      .insert(jobs)
      .values({ kind: publishPostJob.kind, payload: { postId: created.id, at: at.toISOString() }, runAt: new Date() });
    await Promise.all([one.drain(), two.drain()]);
    const after = await getPostBySlug(ctx.db, created.slug);
    expect(after).toMatchObject({ published: true, scheduledAt: null, publishedAt: at, version: 2 });
    expect(await readContentVersion(ctx.db)).toBe(v0 + 1);
    const revisions = await ctx.db.select().from(postRevisions).where(eq(postRevisions.postId, created.id));
    expect(revisions.map((r) => r.kind).sort()).toEqual(["publish", "schedule"]);
    expect(await getReadablePost(ctx.db, created.slug, null)).not.toBeNull();
    expect((await listPublishedPosts(ctx.db, "Fitness", 1)).posts.map((p) => p.slug)).toContain(created.slug);
  });

  it("moves the job when the time changes and drops it when the post is published or unscheduled first", async () => {
    const actor = await admin();
    const first = new Date(Date.now() + 3_600_000);
    const later = new Date(Date.now() + 7_200_000);
    const created = await createPost(ctx.db, actor, { ...base, title: title("Moved"), publishAt: first });
    const input = { ...base, title: "Moved post", publishAt: later };
    await updatePost(ctx.db, actor, created.slug, input);
    const keys = (
      await ctx.db
        .select({ key: jobs.dedupeKey })
        .from(jobs)
        .where(sql`${jobs.payload}->>'postId' = ${created.id}`)
    ).map((r) => r.key);
    expect(keys).toEqual([publishJobKey(created.id, later)]);

    // A stale job for the old time (e.g. already running when the time changed) changes nothing.
    await publishPostJob.enqueue(ctx.db, { postId: created.id, at: first.toISOString() });
    const r = new JobRunner({ database: () => ctx.database, tasks: [], pollMs: 60_000, kinds: [publishPostJob.kind] });
    runners.push(r);
    await r.drain();
    expect(await getPostBySlug(ctx.db, created.slug)).toMatchObject({ published: false, scheduledAt: later });

    // Unscheduled (saved as a plain draft): the job is gone.
    await updatePost(ctx.db, actor, created.slug, { ...input, publishAt: null });
    expect(
      await ctx.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, publishJobKey(created.id, later))),
    ).toHaveLength(0);
    expect(await getPostBySlug(ctx.db, created.slug)).toMatchObject({ published: false, scheduledAt: null });
  });

  it("refuses a publish time that is not in the future", async () => {
    const actor = await admin();
    await expect(
      createPost(ctx.db, actor, { ...base, title: title("Past"), publishAt: new Date(Date.now() - 60_000) }),
    ).rejects.toMatchObject({
      status: 400,
      message: POST_MESSAGES.publishAtPast,
    });
  });

  it("dates a post by its first publication, not its creation, and keeps that date on unpublish", async () => {
    const actor = await admin();
    // Its own category: the scheduled posts of other tests are dated in the future.
    const faith = { ...base, category: "Faith" as const };
    const created = await createPost(ctx.db, actor, { ...faith, title: title("Late draft") });
    const longAgo = new Date("2020-01-01T00:00:00Z");
    await ctx.db.update(blogPosts).set({ createdAt: longAgo }).where(eq(blogPosts.id, created.id));
    expect((await getPostBySlug(ctx.db, created.slug))?.publishedAt).toEqual(longAgo);
    const beforePublish = Date.now();
    await updatePost(ctx.db, actor, created.slug, { ...faith, title: "Late draft", published: true });
    const published = await getPostBySlug(ctx.db, created.slug);
    expect(published?.publishedAt.getTime()).toBeGreaterThanOrEqual(beforePublish - 1000);
    const newest = (await listPublishedPosts(ctx.db, "Faith", 1)).posts[0];
    expect(newest?.slug).toBe(created.slug);
    await updatePost(ctx.db, actor, created.slug, { ...faith, title: "Late draft", published: false });
    await updatePost(ctx.db, actor, created.slug, { ...faith, title: "Late draft", published: true });
    expect((await getPostBySlug(ctx.db, created.slug))?.publishedAt).toEqual(published?.publishedAt);
    const kinds = (await listRevisions(ctx.db, actor, created.id)).map((r) => r.kind);
    expect(kinds).toEqual(["publish", "unpublish", "publish", "save"]);
  });

  it("refuses a save based on an older version, also when two saves race", async () => {
    const actor = await admin();
    const created = await createPost(ctx.db, actor, { ...base, title: title("Contested") });
    const input = { ...base, title: "Contested", version: 1 };
    await updatePost(ctx.db, actor, created.slug, { ...input, content: "First editor." });
    await expect(updatePost(ctx.db, actor, created.slug, { ...input, content: "Second editor." })).rejects.toMatchObject({
      status: 409,
      message: "This post was changed by someone else. Reload to see their changes.",
    });
    expect((await getPostBySlug(ctx.db, created.slug))?.content).toBe("First editor.");

    const results = await Promise.allSettled([
      updatePost(ctx.db, actor, created.slug, { ...input, version: 2, content: "Racer A." }),
      updatePost(second().db, actor, created.slug, { ...input, version: 2, content: "Racer B." }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(
      results.filter((r) => r.status === "rejected").map((r) => (r.status === "rejected" ? (r.reason as { status?: number }).status : 0)),
    ).toEqual([409]);
    expect((await getPostBySlug(ctx.db, created.slug))?.version).toBe(3);
  });

  it("keeps the newest POST_REVISIONS_KEEP revisions, newest first with their author, and deletes them with the post", async () => {
    process.env.POST_REVISIONS_KEEP = "3";
    resetEnvForTests();
    const user = await makeUser(ctx.db, { role: "admin" });
    const created = await createPost(ctx.db, user.actor, { ...base, title: title("Revised"), content: "v0" });
    for (let i = 1; i <= 4; i++) await updatePost(ctx.db, user.actor, created.slug, { ...base, title: "Revised", content: `v${i}` });
    const revisions = await listRevisions(ctx.db, user.actor, created.id);
    expect(revisions.map((r) => r.content)).toEqual(["v4", "v3", "v2"]);
    expect(revisions[0]?.authorEmail).toBe(user.email);
    await expect(listRevisions(ctx.db, { id: "someone", role: "user" }, created.id)).rejects.toMatchObject({ status: 403 });
    await deletePost(ctx.db, user.actor, created.slug);
    expect(await ctx.db.select().from(postRevisions).where(eq(postRevisions.postId, created.id))).toHaveLength(0);
  });
});
