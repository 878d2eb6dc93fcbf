import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { postAutosaves } from "~/server/db/schema.server";
import { describeEachDatabase } from "../../../../tests/helpers/databases";
import { makeUser } from "../../../../tests/helpers/factories";
import { autosaveToOffer, discardOwnAutosave, getAutosave, saveAutosave } from "./autosave.server";
import { createPost, getPostBySlug, updatePost } from "./posts.server";

describeEachDatabase("autosave", (ctx) => {
  it("keeps one pending text per author and post, never touching the live post, until Update Post clears it", async () => {
    const { actor } = await makeUser(ctx.db, { role: "moderator" });
    const created = await createPost(ctx.db, actor, {
      title: `Autosaved ${Date.now()}`,
      content: "Live.",
      category: "Fun",
      published: true,
    });
    const typed = { postId: created.id, category: "Fun", title: "Autosaved", content: "Pending one.", baseVersion: "1" };
    await saveAutosave(ctx.db, actor, typed);
    await saveAutosave(ctx.db, actor, { ...typed, content: "Pending two." });
    expect(await ctx.db.select().from(postAutosaves).where(eq(postAutosaves.postId, created.id))).toHaveLength(1);
    expect((await getPostBySlug(ctx.db, created.slug))?.content).toBe("Live.");
    const post = await getPostBySlug(ctx.db, created.slug);
    if (!post) throw new Error("post missing");
    const editable = { title: post.title, excerpt: "", content: post.content, featuredImageUrl: "", updatedAt: post.updatedAt };
    expect((await autosaveToOffer(ctx.db, actor.id, { postId: created.id }, editable))?.content).toBe("Pending two.");
    // Another author's autosave of the same post is theirs alone.
    const other = await makeUser(ctx.db, { role: "admin" });
    expect(await getAutosave(ctx.db, other.id, { postId: created.id })).toBeNull();

    await updatePost(ctx.db, actor, created.slug, { title: post.title, content: "Saved.", category: "Fun", published: true });
    expect(await getAutosave(ctx.db, actor.id, { postId: created.id })).toBeNull();
  });

  it("keys a new post's text by author and category, offers it, and 'Discard' drops it", async () => {
    const { actor } = await makeUser(ctx.db, { role: "admin" });
    await saveAutosave(ctx.db, actor, { category: "Family", title: "Half a thought", content: "" });
    expect((await autosaveToOffer(ctx.db, actor.id, { category: "Family" }, null))?.title).toBe("Half a thought");
    expect(await getAutosave(ctx.db, actor.id, { category: "Faith" })).toBeNull();
    await discardOwnAutosave(ctx.db, actor, { category: "Family" });
    expect(await getAutosave(ctx.db, actor.id, { category: "Family" })).toBeNull();
  });

  it("does not offer an autosave identical to the saved post", async () => {
    const { actor } = await makeUser(ctx.db, { role: "admin" });
    const created = await createPost(ctx.db, actor, { title: `Same ${Date.now()}`, content: "Same.", category: "Fun", published: false });
    const post = await getPostBySlug(ctx.db, created.slug);
    if (!post) throw new Error("post missing");
    await saveAutosave(ctx.db, actor, { postId: created.id, category: "Fun", title: post.title, content: "Same." });
    const editable = { title: post.title, excerpt: "", content: post.content, featuredImageUrl: "", updatedAt: post.updatedAt };
    expect(await autosaveToOffer(ctx.db, actor.id, { postId: created.id }, editable)).toBeNull();
  });

  it("keeps the form's other fields too, offers an autosave that changed only them, and refuses unreadable ones", async () => {
    const { actor } = await makeUser(ctx.db, { role: "admin" });
    const created = await createPost(ctx.db, actor, {
      title: `Details ${Date.now()}`,
      content: "Same.",
      category: "Fun",
      published: false,
    });
    const post = await getPostBySlug(ctx.db, created.slug);
    if (!post) throw new Error("post missing");
    const unchanged = {
      category: "Fun",
      slug: post.slug,
      published: false,
      featured: false,
      media: [],
      schedule: false,
      publishAt: "",
    };
    const changed = {
      ...unchanged,
      category: "Family",
      slug: "elsewhere",
      featured: true,
      media: [{ mediaType: "youtube", mediaUrl: "https://youtu.be/dQw4w9WgXcQ", caption: "A video", alt: "" }],
      schedule: true,
      publishAt: "2031-05-01T08:00",
    };
    const text = { postId: created.id, category: "Fun", title: post.title, content: "Same." };
    const editable = {
      title: post.title,
      excerpt: "",
      content: "Same.",
      featuredImageUrl: "",
      details: unchanged,
      updatedAt: post.updatedAt,
    };
    await saveAutosave(ctx.db, actor, { ...text, details: JSON.stringify(unchanged) });
    expect(await autosaveToOffer(ctx.db, actor.id, { postId: created.id }, editable)).toBeNull();
    await saveAutosave(ctx.db, actor, { ...text, details: JSON.stringify(changed) });
    const offered = await autosaveToOffer(ctx.db, actor.id, { postId: created.id }, editable);
    expect(offered?.details).toEqual(changed);
    await expect(saveAutosave(ctx.db, actor, { ...text, details: "{not json" })).rejects.toMatchObject({ status: 400 });
    await expect(saveAutosave(ctx.db, actor, { ...text, details: JSON.stringify({ ...changed, category: "Food" }) })).rejects.toMatchObject(
      {
        status: 400,
      },
    );
  });

  it("refuses visitors, plain users, unknown posts and oversized text", async () => {
    const user = await makeUser(ctx.db, { role: "user" });
    const { actor } = await makeUser(ctx.db, { role: "admin" });
    await expect(saveAutosave(ctx.db, null, { category: "Fun" })).rejects.toMatchObject({ status: 401 });
    await expect(saveAutosave(ctx.db, user.actor, { category: "Fun", title: "x" })).rejects.toMatchObject({ status: 403 });
    await expect(saveAutosave(ctx.db, actor, { postId: "00000000-0000-4000-8000-000000000000", category: "Fun" })).rejects.toMatchObject({
      status: 404,
    });
    await expect(saveAutosave(ctx.db, actor, { category: "Nope" })).rejects.toMatchObject({ status: 400 });
    await expect(saveAutosave(ctx.db, actor, { category: "Fun", content: "x".repeat(100_001) })).rejects.toMatchObject({ status: 400 });
    await expect(discardOwnAutosave(ctx.db, actor, { postId: "not-a-uuid" })).rejects.toMatchObject({ status: 400 });
  });
});
