import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { auditLog } from "~/server/db/schema.server";
import { describeEachDatabase } from "../helpers/databases";
import { makePost, unique } from "../helpers/factories";
import { useSignedInServer } from "../helpers/test-server";

/**
 * Edit mode's 'Category' and 'URL slug' through the production server: the old address answers 301
 * to the new one forever (documents, HEAD and React Router's data requests), never through a chain;
 * the RSS guid stays the first address; a taken slug is a 400 with the field's message.
 */
describeEachDatabase("moving a post to a new category and slug", (ctx) => {
  const server = useSignedInServer(ctx, "admin");

  const edit = (path: string, body: Record<string, string>) =>
    server.postForm(`${path}/edit`, { title: "Moved post", content: "Body", published: "on", ...body });

  async function expectMoved(from: string, to: string) {
    for (const method of ["GET", "HEAD"]) {
      const r = await server.fetch(from, { method });
      expect(r.status, `${method} ${from}`).toBe(301);
      expect(r.headers.get("location"), `${method} ${from}`).toBe(to);
    }
    // React Router's data request (client-side navigation) gets its own redirect answer: 202 with the
    // 301 and the new address inside, which the router follows (a real 301 would be fetched, not shown).
    const data = await server.fetch(`${from}.data`);
    expect(data.status).toBe(202);
    const body = await data.text();
    expect(body).toContain("SingleFetchRedirect");
    expect(body).toContain(`"redirect","${to}","status",301`);
  }

  it("changing category and slug: the old address answers 301 to the new one; sitemap, canonical and JSON-LD use the new one", async () => {
    const post = await makePost(ctx.db, { category: "Faith", title: `Old title ${unique()}` });
    const newSlug = `new-address-${unique()}`;
    const saved = await edit(`/7fs/Faith/${post.slug}`, { category: "Finance", slug: newSlug });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`/7fs/Finance/${newSlug}`);
    await expectMoved(`/7fs/Faith/${post.slug}`, `/7fs/Finance/${newSlug}`);
    // Under any category spelling, the old slug still finds the post.
    expect((await server.fetch(`/7fs/Fun/${post.slug}`)).headers.get("location")).toBe(`/7fs/Finance/${newSlug}`);
    expect((await server.fetch(`/7fs/Faith/${post.slug}/edit`, { headers: { cookie: server.cookie } })).headers.get("location")).toBe(
      `/7fs/Finance/${newSlug}/edit`,
    );
    const page = await server.fetch(`/7fs/Finance/${newSlug}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(new RegExp(`<link rel="canonical" href="[^"]*/7fs/Finance/${newSlug}"`));
    const jsonLd = html.match(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/)?.[1] ?? "";
    expect(jsonLd).toContain(`/7fs/Finance/${newSlug}`);
    expect(jsonLd).not.toContain(post.slug);
    // /sitemap.xml is an index; posts are listed in /sitemaps/posts-N.xml.
    const sitemap = await (await server.fetch("/sitemaps/posts-1.xml")).text();
    expect(sitemap).toContain(`/7fs/Finance/${newSlug}</loc>`);
    expect(sitemap).not.toContain(`/7fs/Faith/${post.slug}</loc>`);
    const audit = await ctx.db.select({ summary: auditLog.summary }).from(auditLog).where(eq(auditLog.targetId, post.id));
    expect(audit.map((a) => a.summary).join("\n")).toContain(`moved from /7fs/Faith/${post.slug} to /7fs/Finance/${newSlug}`);
  });

  it("changing twice never chains: the first address answers 301 straight to the last; the RSS guid stays the first URL", async () => {
    const post = await makePost(ctx.db, { category: "Fun", title: `Chain start ${unique()}` });
    const first = `/7fs/Fun/${post.slug}`;
    const rssBefore = await (await server.fetch("/rss.xml")).text();
    expect(rssBefore).toContain(`<guid isPermaLink="true">`);
    const guid = rssBefore.match(new RegExp(`<guid isPermaLink="true">([^<]*${post.slug})</guid>`))?.[1];
    expect(guid).toBeDefined();
    const b = `chain-b-${unique()}`;
    const c = `chain-c-${unique()}`;
    expect((await edit(first, { category: "Fun", slug: b })).status).toBe(302);
    expect((await edit(`/7fs/Fun/${b}`, { category: "Family", slug: c })).status).toBe(302);
    await expectMoved(first, `/7fs/Family/${c}`);
    await expectMoved(`/7fs/Fun/${b}`, `/7fs/Family/${c}`);
    for (const feed of ["/rss.xml", "/7fs/Family/rss.xml"]) {
      const rss = await (await server.fetch(feed)).text();
      expect(rss, feed).toContain(`<guid isPermaLink="true">${guid}</guid>`);
      expect(rss, feed).toContain(`<link>${guid?.replace(first, `/7fs/Family/${c}`)}</link>`);
    }
  });

  it("a slug another post uses is a 400 with the field's message; bad slugs get the slug rule's message", async () => {
    const taken = await makePost(ctx.db, { category: "Fitness", title: `Taken ${unique()}` });
    const post = await makePost(ctx.db, { category: "Fitness", title: `Mover ${unique()}` });
    const clash = await edit(`/7fs/Fitness/${post.slug}`, { category: "Fitness", slug: taken.slug });
    expect(clash.status).toBe(400);
    expect(await clash.text()).toContain("That URL slug is already used by another post");
    for (const [slug, message] of [
      ["Has Capitals", "URL slug may only contain lowercase letters a-z, digits 0-9 and single hyphens"],
      ["", "URL slug is required"],
      ["a".repeat(121), "URL slug must be at most 120 characters"],
      ["new", "That URL slug is reserved"],
    ] as const) {
      const r = await edit(`/7fs/Fitness/${post.slug}`, { category: "Fitness", slug });
      expect(r.status, slug).toBe(400);
      expect(await r.text(), slug).toContain(message);
    }
    const badCategory = await edit(`/7fs/Fitness/${post.slug}`, { category: "Food", slug: post.slug });
    expect(badCategory.status).toBe(400);
    expect((await server.fetch(`/7fs/Fitness/${post.slug}`)).status).toBe(200);
  });

  it("an old address that a new post later takes belongs to the new post", async () => {
    const title = `Reused address ${unique()}`;
    const post = await makePost(ctx.db, { category: "Friends", title });
    const moved = `moved-away-${unique()}`;
    expect((await edit(`/7fs/Friends/${post.slug}`, { category: "Friends", slug: moved })).status).toBe(302);
    expect((await server.fetch(`/7fs/Friends/${post.slug}`)).status).toBe(301);
    const created = await server.fetch("/7fs/Friends/new", {
      method: "POST",
      headers: { cookie: server.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ title, content: "A new post at the old address.", published: "on" }).toString(),
    });
    expect(created.headers.get("location")).toBe(`/7fs/Friends/${post.slug}`);
    const page = await server.fetch(`/7fs/Friends/${post.slug}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("A new post at the old address.");
    expect((await server.fetch(`/7fs/Friends/${moved}`)).status).toBe(200);
  });

  it("a moved draft's old address stays a 404 for visitors", async () => {
    const post = await makePost(ctx.db, { category: "Figurehead", title: `Draft mover ${unique()}`, published: false });
    const moved = `draft-moved-${unique()}`;
    expect((await edit(`/7fs/Figurehead/${post.slug}`, { category: "Figurehead", slug: moved, published: "" })).status).toBe(302);
    expect((await server.fetch(`/7fs/Figurehead/${post.slug}`)).status).toBe(404);
    expect((await server.fetch(`/7fs/Figurehead/${post.slug}`, { headers: { cookie: server.cookie } })).status).toBe(301);
  });
});
