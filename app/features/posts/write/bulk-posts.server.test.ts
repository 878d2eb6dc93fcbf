import { eq, inArray } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { createUser } from "~/features/users/users.server";
import type { Actor } from "~/lib/permissions";
import { auditLog, blogPosts, postRedirects } from "~/server/db/schema.server";
import { ForbiddenError, ValidationError } from "~/server/errors.server";
import { describeEachDatabase } from "../../../../tests/helpers/databases";
import { bulkPostAction } from "./bulk-posts.server";
import { createPost } from "./posts.server";

let n = 0;
async function actor(db: Parameters<typeof createUser>[0], role: "admin" | "moderator" | "user"): Promise<Actor> {
  n += 1;
  const u = await createUser(db, {
    email: `${role}${n}-${Date.now()}@bulk.test`,
    password: "bulk test pass phrase 9",
    roles: role === "user" ? [] : [role],
  });
  return { id: u.id, role };
}

const base = { content: "Some words here.", category: "Fitness" as const, published: false };

describeEachDatabase("bulk post actions", (ctx) => {
  let admin: Actor;
  let mod: Actor;
  let mod2: Actor;
  beforeAll(async () => {
    admin = await actor(ctx.db, "admin");
    mod = await actor(ctx.db, "moderator");
    mod2 = await actor(ctx.db, "moderator");
  });

  const stateOf = async (ids: string[]) =>
    (
      await ctx.db
        .select({ id: blogPosts.id, published: blogPosts.published, category: blogPosts.category })
        .from(blogPosts)
        .where(inArray(blogPosts.id, ids))
    ).sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));

  it("publishes, unpublishes and moves each selected post, keeping each post's rules", async () => {
    const a = await createPost(ctx.db, mod, { ...base, title: "Bulk one" });
    const b = await createPost(ctx.db, mod, { ...base, title: "Bulk two" });
    // Going live needs alt text on its images: this one is reported, the others still change.
    const c = await createPost(ctx.db, mod, { ...base, title: "Bulk no alt", featuredImageUrl: "https://example.com/a.jpg" });
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
    const mine = await createPost(ctx.db, mod, { ...base, title: "Bulk mine" });
    const theirs = await createPost(ctx.db, mod2, { ...base, title: "Bulk theirs" });
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
