import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aroundPost } from "~/features/posts/read/around-post.server";
import { describeEachDatabase } from "../helpers/databases";
import { makePost } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";

const day = (n: number) => new Date(Date.UTC(2025, 0, n));

describeEachDatabase("around a post", (ctx) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  describe("aroundPost", () => {
    it("gives the newest three others of the category and its published neighbours, skipping drafts and other categories", async () => {
      const oldest = await makePost(ctx.db, { category: "Faith", createdAt: day(1) });
      const older = await makePost(ctx.db, { category: "Faith", createdAt: day(2) });
      await makePost(ctx.db, { category: "Faith", createdAt: day(3), published: false });
      await makePost(ctx.db, { category: "Finance", createdAt: day(3) });
      const current = await makePost(ctx.db, { category: "Faith", createdAt: day(4) });
      const newer = await makePost(ctx.db, { category: "Faith", createdAt: day(5) });
      const newest = await makePost(ctx.db, { category: "Faith", createdAt: day(6) });

      const around = await aroundPost(ctx.db, current);
      expect(around.previous?.slug).toBe(older.slug);
      expect(around.next?.slug).toBe(newer.slug);
      expect(around.related.map((p) => p.slug)).toEqual([newest.slug, newer.slug, older.slug]);

      expect((await aroundPost(ctx.db, oldest)).previous).toBeNull();
      expect((await aroundPost(ctx.db, newest)).next).toBeNull();
    });

    it("orders by the date a post was first published, not the day its draft was created", async () => {
      const draftedFirst = await makePost(ctx.db, { category: "Fitness", createdAt: day(1), publishedAt: day(10) });
      const middle = await makePost(ctx.db, { category: "Fitness", createdAt: day(5), publishedAt: day(5) });
      const draftedLast = await makePost(ctx.db, { category: "Fitness", createdAt: day(8), publishedAt: day(2) });
      const around = await aroundPost(ctx.db, middle);
      expect(around.previous?.slug).toBe(draftedLast.slug);
      expect(around.next?.slug).toBe(draftedFirst.slug);
      expect(around.related.map((p) => p.slug)).toEqual([draftedFirst.slug, draftedLast.slug]);
    });

    it("orders posts created at the same moment by id, so previous and next never loop", async () => {
      const at = day(20);
      const posts = await Promise.all([0, 1, 2].map(() => makePost(ctx.db, { category: "Fun", createdAt: at })));
      const ids = posts.map((p) => p.id).sort();
      const byId = (id: string | undefined) => posts.find((p) => p.id === id);
      const middle = byId(ids[1]);
      if (!middle) throw new Error("no middle post");
      const around = await aroundPost(ctx.db, middle);
      expect(around.previous?.slug).toBe(byId(ids[0])?.slug);
      expect(around.next?.slug).toBe(byId(ids[2])?.slug);
    });
  });

  it("the post page shows 'Related posts' and previous/next links", async () => {
    const first = await makePost(ctx.db, { category: "Family", title: "Family first post", createdAt: day(1) });
    const second = await makePost(ctx.db, { category: "Family", title: "Family second post", createdAt: day(2) });
    const third = await makePost(ctx.db, { category: "Family", title: "Family third post", createdAt: day(3) });
    const html = await (await server.fetch(`/7fs/Family/${second.slug}`)).text();
    expect(html).toContain('aria-label="More in Family"');
    expect(html).toMatch(new RegExp(`<a[^>]*rel="prev"[^>]*href="/7fs/Family/${first.slug}"`));
    expect(html).toMatch(new RegExp(`<a[^>]*rel="next"[^>]*href="/7fs/Family/${third.slug}"`));
    expect(html).toContain("Related posts");
    const lonely = await makePost(ctx.db, { category: "Figurehead", title: "Alone in its category" });
    const alone = await (await server.fetch(`/7fs/Figurehead/${lonely.slug}`)).text();
    expect(alone).not.toContain("Related posts");
    expect(alone).not.toContain("More in Figurehead");
  });

  it("a post with three or more headings starts with a server-rendered table of contents linking to them", async () => {
    const post = await makePost(ctx.db, {
      category: "Friends",
      title: "A post with sections",
      content: "Intro\n\n# First part\n\nText\n\n## A detail\n\nText\n\n# Second part\n\nText",
    });
    const html = await (await server.fetch(`/7fs/Friends/${post.slug}`)).text();
    const nav = /<nav aria-label="Table of contents"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? "";
    const links = [...nav.matchAll(/<a href="#([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => [m[1], m[2]]);
    expect(links).toEqual([
      ["first-part", "First part"],
      ["a-detail", "A detail"],
      ["second-part", "Second part"],
    ]);
    for (const [id] of links) expect(html).toMatch(new RegExp(`<h[23] id="${id}">`));
    const short = await makePost(ctx.db, { category: "Friends", title: "Two sections only", content: "# One\n\nText\n\n# Two\n\nText" });
    expect(await (await server.fetch(`/7fs/Friends/${short.slug}`)).text()).not.toContain("Table of contents");
  });
});
