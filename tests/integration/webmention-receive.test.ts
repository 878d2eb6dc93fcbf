import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { mf2 } from "microformats-parser";
import { afterAll, beforeAll, expect, it } from "vitest";
import { moderateComment, postCommentsView } from "~/features/comments/comments.server";
import { publicSiteUrl } from "~/features/settings/site-url.server";
import { acceptWebmention, verifyWebmentionJob } from "~/features/webmentions/receive.server";
import { comments, jobs } from "~/server/db/schema.server";
import { resetEnvForTests } from "~/server/env.server";
import { defineJob } from "~/server/jobs/jobs.server";
import { JobRunner } from "~/server/jobs/runner.server";
import { describeEachDatabase } from "../helpers/databases";
import { makePost } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";

// The source pages are served on 127.0.0.1, which the outbound guard refuses unless this is set.
process.env.OUTBOUND_ALLOW_PRIVATE = "true";

/**
 * Webmention receiving against a real local HTTP server that serves the source pages: the endpoint
 * checks and queues, the job runner fetches and reads the source's microformats2, the mention waits in
 * the comments' queue and shows under the post once approved; an update changes it, a 410 or a
 * removed link takes it away.
 */
const pages = new Map<string, { status: number; body: string; type?: string }>();
let sources: Server;
let base = "";
const saved = { ...process.env };

beforeAll(async () => {
  process.env.LOG_LEVEL = "silent";
  resetEnvForTests();
  sources = createServer((req, res) => {
    const page = pages.get(req.url ?? "");
    if (!page) return void res.writeHead(404).end("not here");
    res.writeHead(page.status, { "content-type": page.type ?? "text/html; charset=utf-8" }).end(page.body);
  });
  await new Promise<void>((resolve) => sources.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(sources.address() as AddressInfo).port}`;
});
afterAll(async () => {
  process.env = saved;
  resetEnvForTests();
  await new Promise((resolve) => sources.close(resolve));
});

const admin = { id: "admin", role: "admin" } as const;

const reply = (target: string, text: string) => `<!doctype html><html><body>
<article class="h-entry">
  <a class="p-author h-card" href="${base}/">Alice Example</a>
  <p>In reply to <a class="u-in-reply-to" href="${target}">your post</a></p>
  <div class="e-content">${text}</div>
</article></body></html>`;
const like = (target: string) => `<!doctype html><div class="h-entry"><span class="p-author h-card"><span class="p-name">Bob</span>
<a class="u-url" href="https://bob.example/">home</a></span> liked <a class="u-like-of" href="${target}">this</a></div>`;

describeEachDatabase("webmention receiving", (ctx) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const runJobs = async () => {
    // The build registered its own copy of the kind when the server started; the runner here knows
    // this module's errors (a PermanentJobError of the other copy would read as a retry).
    defineJob(verifyWebmentionJob.kind, verifyWebmentionJob.schema, verifyWebmentionJob.handler, verifyWebmentionJob);
    const runner = new JobRunner({ database: () => ctx.database, tasks: [], pollMs: 60_000, kinds: [verifyWebmentionJob.kind] });
    try {
      await runner.drain();
    } finally {
      await runner.stop();
    }
  };
  const send = (source: string, target: string) =>
    server.fetch("/webmention", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ source, target }),
    });
  const mentionRow = async (source: string) =>
    (
      await ctx.db
        .select({
          state: comments.state,
          kind: comments.mentionKind,
          name: comments.authorName,
          body: comments.body,
          reason: comments.reason,
        })
        .from(comments)
        .where(eq(comments.sourceUrl, source))
    )[0];

  it("announces its endpoint on a published post, in the Link header and the page", async () => {
    const post = await makePost(ctx.db);
    const response = await server.fetch(`/7fs/Fun/${post.slug}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("link")).toBe('</webmention>; rel="webmention"');
    expect(await response.text()).toMatch(/<link rel="webmention" href="\/webmention"\/?>/);
  });

  it("marks a post page up as an h-entry that the same microformats2 parser reads", async () => {
    const post = await makePost(ctx.db, { title: "Saving for a rainy day", content: "Put **some** aside." });
    const path = `/7fs/Fun/${post.slug}`;
    const html = await (await server.fetch(path)).text();
    const entry = mf2(html, { baseUrl: `${server.url}${path}` }).items.find((item) => item.type?.includes("h-entry"));
    expect(entry).toBeDefined();
    const props = entry!.properties;
    expect(props.name).toEqual(["Saving for a rainy day"]);
    // The entry's address is the post's at the site's configured address.
    expect(props.url).toEqual([`${await publicSiteUrl()}${path}`]);
    expect(props.published).toEqual([post.publishedAt!.toISOString()]);
    const content = props.content?.[0] as { html: string; value: string };
    expect(content.value).toBe("Put some aside.");
    expect(content.html).toContain("<strong>some</strong>");
    const author = props.author?.[0] as { type: string[]; properties: Record<string, unknown[]> };
    expect(author.type).toEqual(["h-card"]);
    expect(author.properties.name).toEqual([expect.any(String)]);
    expect(author.properties.url).toEqual([await publicSiteUrl()]);
    // The page reads the same: the markup adds no visible text.
    expect(html).toMatch(/<h1 class="p-name[^"]*">Saving for a rainy day<\/h1>/);
  });

  it("refuses what is not a Webmention for a published post here, with a sentence", async () => {
    const post = await makePost(ctx.db);
    const draft = await makePost(ctx.db, { published: false });
    const target = `${server.url}/7fs/Fun/${post.slug}`;
    const cases: [string, string, RegExp][] = [
      ["ftp://example.com/x", target, /source must be an http/],
      [`${base}/a`, "https://elsewhere.example/7fs/Fun/x", /target is not a published post/],
      [`${base}/a`, `${server.url}/7fs/Fun/${draft.slug}`, /target is not a published post/],
      [`${base}/a`, `${server.url}/7fs/Fun/no-such-post`, /target is not a published post/],
      [target, target, /must be different/],
    ];
    for (const [source, t, message] of cases) {
      const response = await send(source, t);
      expect(response.status, `${source} → ${t}`).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(message);
    }
    const missing = await server.fetch("/webmention", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "target=x",
    });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(await missing.json())).toMatch(/source is required/);
  });

  it("verifies a reply on the job runner, holds it for moderation and shows it once approved; updates and a 410 follow", async () => {
    const post = await makePost(ctx.db);
    const target = `${server.url}/7fs/Fun/${post.slug}`;
    const source = `${base}/alice/reply-1`;
    pages.set("/alice/reply-1", { status: 200, body: reply(target, "Great point about <b>budgets</b>.") });
    const response = await send(source, target);
    expect(response.status).toBe(202);
    expect(await response.text()).toMatch(/Webmention accepted/);
    // Nothing is fetched before the job runs.
    expect(await mentionRow(source)).toBeUndefined();
    await runJobs();
    const held = await mentionRow(source);
    expect(held).toMatchObject({ state: "pending", kind: "reply", name: "Alice Example", body: "Great point about budgets." });
    expect(held?.reason).toMatch(/First mention from 127\.0\.0\.1/);
    const [row] = await ctx.db.select({ id: comments.id }).from(comments).where(eq(comments.sourceUrl, source));
    await moderateComment(ctx.db, admin, row!.id, "approved");
    const view = await postCommentsView(ctx.db, post);
    expect(view.comments.map((c) => [c.authorName, c.source])).toEqual([["Alice Example", source]]);
    const page = await (await server.fetch(`/7fs/Fun/${post.slug}`)).text();
    expect(page).toContain("Great point about budgets.");
    expect(page).toContain(`href="${source}"`);
    // Initials stand in for the author's picture: nothing on the page is loaded from their site.
    expect(page).toMatch(/<span aria-hidden="true"[^>]*>AE<\/span>/);
    expect(page).not.toMatch(/<img[^>]+src="http:\/\/127\.0\.0\.1/);

    // The source changes its text: the mention follows (still published, its host is known now).
    pages.set("/alice/reply-1", { status: 200, body: reply(target, "Great point about budgets, and savings.") });
    expect((await send(source, target)).status).toBe(202);
    await runJobs();
    expect(await mentionRow(source)).toMatchObject({ state: "approved", body: "Great point about budgets, and savings." });
    expect(await ctx.db.select({ id: comments.id }).from(comments).where(eq(comments.sourceUrl, source))).toHaveLength(1);

    // Gone: the mention leaves the page.
    pages.set("/alice/reply-1", { status: 410, body: "gone" });
    expect((await send(source, target)).status).toBe(202);
    await runJobs();
    expect(await mentionRow(source)).toBeUndefined();
    expect(await (await server.fetch(`/7fs/Fun/${post.slug}`)).text()).not.toContain("and savings.");
  });

  it("lists a like under Mentions; a source that drops the link removes it; one that never linked stores nothing", async () => {
    const post = await makePost(ctx.db);
    const target = `${server.url}/7fs/Fun/${post.slug}`;
    const source = `${base}/bob/likes/1`;
    pages.set("/bob/likes/1", { status: 200, body: like(target) });
    await acceptWebmention(ctx.db, { source, target }, "203.0.113.9", [server.url]);
    await runJobs();
    const [row] = await ctx.db.select({ id: comments.id }).from(comments).where(eq(comments.sourceUrl, source));
    expect(await mentionRow(source)).toMatchObject({ state: "pending", kind: "like", name: "Bob", body: "" });
    await moderateComment(ctx.db, admin, row!.id, "approved");
    const view = await postCommentsView(ctx.db, post);
    expect(view.count).toBe(0);
    expect(view.mentions).toEqual([
      expect.objectContaining({ kind: "like", authorName: "Bob", authorUrl: "https://bob.example/", source }),
    ]);
    const page = await (await server.fetch(`/7fs/Fun/${post.slug}`)).text();
    expect(page).toMatch(/Mentions<\/h3>/);
    expect(page).toContain("liked this");

    pages.set("/bob/likes/1", { status: 200, body: "<p>I changed my mind.</p>" });
    await acceptWebmention(ctx.db, { source, target }, "203.0.113.9", [server.url]);
    await runJobs();
    expect(await mentionRow(source)).toBeUndefined();

    const unrelated = `${base}/bob/unrelated`;
    pages.set("/bob/unrelated", { status: 200, body: `<p>Nothing about <a href="${target}-other">that post</a>.</p>` });
    await acceptWebmention(ctx.db, { source: unrelated, target }, "203.0.113.9", [server.url]);
    await runJobs();
    expect(await mentionRow(unrelated)).toBeUndefined();
  });

  it("gives up on a source that answers 404; the source host is rate limited", async () => {
    const post = await makePost(ctx.db);
    const target = `${server.url}/7fs/Fun/${post.slug}`;
    await acceptWebmention(ctx.db, { source: `${base}/missing`, target }, "203.0.113.10", [server.url]);
    await runJobs();
    const states = await ctx.db
      .select({ state: jobs.state, error: jobs.lastError, payload: jobs.payload })
      .from(jobs)
      .where(eq(jobs.kind, verifyWebmentionJob.kind));
    expect(states.find((job) => (job.payload as { source: string }).source === `${base}/missing`)).toMatchObject({
      state: "failed",
      error: "Webmention source answered HTTP 404",
    });

    const flood = "https://flood.example";
    let refused: unknown;
    for (let i = 0; i < 31 && !refused; i++)
      await acceptWebmention(ctx.db, { source: `${flood}/${i}`, target }, `198.51.100.${i}`, [server.url]).catch((error: unknown) => {
        refused = error;
      });
    expect(String(refused)).toMatch(/Too many Webmentions from this site/);
  });
});
