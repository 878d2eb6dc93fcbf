import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createPost, updatePost } from "~/features/posts/write/posts.server";
import { discoverEndpoint, sendWebmentionsJob } from "~/features/webmentions/send.server";
import { jobs, webmentionSends } from "~/server/db/schema.server";
import { resetEnvForTests } from "~/server/env.server";
import { JobRunner } from "~/server/jobs/runner.server";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs, unique } from "../helpers/factories";

// The receiver pages are served on 127.0.0.1, which the outbound guard refuses unless this is set.
process.env.OUTBOUND_ALLOW_PRIVATE = "true";

/**
 * Webmention sending against a real local receiver: publishing a post discovers each linked page's
 * endpoint (Link header, <link>, <a>) and posts source and target to it, once per version of the post;
 * an update that changes the post sends again, and a link the update removed is told once more.
 */
let receiver: Server;
let base = "";
const received: { path: string; source: string; target: string }[] = [];
const saved = { ...process.env };

beforeAll(async () => {
  process.env.LOG_LEVEL = "silent";
  resetEnvForTests();
  receiver = createServer((req, res) => {
    const url = req.url ?? "";
    if (req.method === "POST") {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        const form = new URLSearchParams(body);
        received.push({ path: url, source: form.get("source") ?? "", target: form.get("target") ?? "" });
        res.writeHead(202).end("accepted");
      });
      return;
    }
    const html = (head: string) => `<!doctype html><html><head>${head}</head><body>page</body></html>`;
    if (url === "/header") res.writeHead(200, { "content-type": "text/html", link: '</endpoints/header>; rel="webmention"' }).end(html(""));
    else if (url === "/link")
      res.writeHead(200, { "content-type": "text/html" }).end(html('<link rel="webmention" href="/endpoints/link?token=1">'));
    else if (url === "/anchor")
      res.writeHead(200, { "content-type": "text/html" }).end(`<p><a rel="nofollow webmention" href="">self</a></p>`);
    else if (url === "/redirect") res.writeHead(302, { location: "/link" }).end();
    else if (url === "/plain") res.writeHead(200, { "content-type": "text/html" }).end(html(""));
    else res.writeHead(404).end("no");
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  process.env = saved;
  resetEnvForTests();
  await new Promise((resolve) => receiver.close(resolve));
});

it("discovers the endpoint in the Link header first, then the first <link> or <a>", () => {
  const page = "https://example.com/post/1";
  expect(discoverEndpoint({ url: page, html: '<link rel="webmention" href="/b">', link: '<https://e.example/a>; rel="webmention"' })).toBe(
    "https://e.example/a",
  );
  expect(discoverEndpoint({ url: page, html: null, link: '</x>; rel="other", </wm?a=1>; rel="webmention"' })).toBe(
    "https://example.com/wm?a=1",
  );
  expect(
    discoverEndpoint({ url: page, html: '<a rel="webmention" href="/first">a</a><link rel="webmention" href="/second">', link: null }),
  ).toBe("https://example.com/first");
  expect(discoverEndpoint({ url: page, html: '<link rel="webmention" href="">', link: null })).toBe(page);
  expect(discoverEndpoint({ url: page, html: '<!-- <link rel="webmention" href="/c"> --><p>none</p>', link: null })).toBeNull();
});

describeEachDatabase("webmention sending", (ctx) => {
  const run = async () => {
    const runner = new JobRunner({ database: () => ctx.database, tasks: [], pollMs: 60_000, kinds: [sendWebmentionsJob.kind] });
    try {
      await runner.drain();
    } finally {
      await runner.stop();
    }
  };

  it("notifies each linked page's endpoint once per version of the post", async () => {
    received.length = 0;
    const admin = { id: (await signedInAs(ctx.db, "admin")).userId, role: "admin" } as const;
    const links = (extra = "") =>
      `See [one](${base}/header), [two](${base}/link), [three](${base}/anchor), [moved](${base}/redirect), [none](${base}/plain) and [gone](${base}/missing).${extra}`;
    const title = `Linking out ${unique()}`;
    const post = await createPost(ctx.db, admin, { title, content: links(), category: "Fun", published: true });
    await run();
    const source = expect.stringMatching(new RegExp(`/7fs/Fun/${post.slug}$`));
    expect(received.map((r) => r.path).sort()).toEqual([
      "/anchor",
      "/endpoints/header",
      "/endpoints/link?token=1",
      "/endpoints/link?token=1",
    ]);
    expect(received).toContainEqual({ path: "/endpoints/header", source, target: `${base}/header` });
    expect(received).toContainEqual({ path: "/endpoints/link?token=1", source, target: `${base}/redirect` });
    expect(received).toContainEqual({ path: "/anchor", source, target: `${base}/anchor` });
    const rows = await ctx.db
      .select({ target: webmentionSends.target, status: webmentionSends.status })
      .from(webmentionSends)
      .where(eq(webmentionSends.postId, post.id));
    expect(rows).toHaveLength(6);
    expect(rows.filter((row) => row.status === 202)).toHaveLength(4);

    // Saving the same text again sends nothing; a changed post sends again, and a dropped link hears once more.
    await updatePost(ctx.db, admin, post.slug, { title, content: links(), category: "Fun", published: true });
    await run();
    expect(received).toHaveLength(4);
    received.length = 0;
    await updatePost(ctx.db, admin, post.slug, { title, content: `Only [one](${base}/header) now.`, category: "Fun", published: true });
    await run();
    expect(received.map((r) => r.target).sort()).toEqual([`${base}/anchor`, `${base}/header`, `${base}/link`, `${base}/redirect`].sort());
    const after = await ctx.db.select({ target: webmentionSends.target }).from(webmentionSends).where(eq(webmentionSends.postId, post.id));
    expect(after).toEqual([{ target: `${base}/header` }]);
    const failed = await ctx.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.state, "failed"));
    expect(failed).toEqual([]);
  });

  it("sends nothing for a draft", async () => {
    received.length = 0;
    const admin = { id: (await signedInAs(ctx.db, "admin")).userId, role: "admin" } as const;
    await createPost(ctx.db, admin, { title: `Draft ${unique()}`, content: `[one](${base}/header)`, category: "Fun", published: false });
    await run();
    expect(received).toEqual([]);
  });
});
