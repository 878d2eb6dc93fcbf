import { afterAll, beforeAll, expect, it } from "vitest";
import { startContentVersion, stopContentVersion } from "~/server/content-version.server";
import { describeEachDatabase } from "../helpers/databases";
import { makePost, signedInAs } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";

// The rendered-page cache (server/page-handler.ts) through the production server.

describeEachDatabase("page cache", (ctx) => {
  let server: TestServer;
  let editor: Awaited<ReturnType<typeof signedInAs>>;
  let slug: string;

  beforeAll(async () => {
    const post = await makePost(ctx.db, { title: "Cached Post Original", category: "Fun", content: "First words" });
    slug = post.slug;
    editor = await signedInAs(ctx.db, "admin");
    // The server follows the content version as start-up does; the cache is off without it.
    await startContentVersion();
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
    await stopContentVersion();
  });

  const get = (path: string, headers: Record<string, string> = {}) => server.fetch(path, { headers });

  it("renders a public page once, then serves it from memory with a strong ETag and a CDN-friendly Cache-Control", async () => {
    const first = await get("/about?utm_source=test");
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    const second = await get("/about");
    expect(second.headers.get("x-cache")).toBe("HIT");
    // The same page, with this response's own CSP nonce on every inline script (and in the root's data).
    const secondBody = await second.text();
    const nonceOf = (body: string) => /nonce="([^"]+)"/.exec(body)?.[1] ?? "";
    const [firstNonce, secondNonce] = [nonceOf(firstBody), nonceOf(secondBody)];
    expect(firstNonce).not.toBe("");
    expect(secondNonce).not.toBe(firstNonce);
    expect(second.headers.get("content-security-policy")).toContain(`'nonce-${secondNonce}'`);
    expect(secondBody.replaceAll(secondNonce, "N")).toBe(firstBody.replaceAll(firstNonce, "N"));
    const etag = second.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(second.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=300");
    expect(second.headers.get("set-cookie")).toBeNull();

    const notModified = await get("/about", { "if-none-match": etag ?? "" });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe("");
    expect((await get("/about", { "if-none-match": '"something-else"' })).status).toBe(200);
  });

  it("answers HEAD from the same entry, without a body", async () => {
    await (await get("/projects")).text();
    const head = await server.fetch("/projects", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-cache")).toBe("HIT");
    expect(await head.text()).toBe("");
  });

  it("serves precompressed bodies to clients that accept them (feeds; pages carry a per-response nonce)", async () => {
    // A feed long enough to be worth compressing.
    for (let i = 0; i < 3; i++)
      await makePost(ctx.db, { title: `Compressed feed post ${i}`, category: "Fun", content: "Words. ".repeat(200) });
    await (await get("/rss.xml")).text();
    const raw = await new Promise<{ encoding: string | undefined; length: number }>((resolve, reject) => {
      // fetch() decodes bodies itself; node:http shows what went over the wire.
      void import("node:http").then(({ get: httpGet }) => {
        httpGet(`${server.url}/rss.xml`, { headers: { "accept-encoding": "br, gzip" } }, (res) => {
          let length = 0;
          res.on("data", (chunk: Buffer) => (length += chunk.length));
          res.on("end", () => resolve({ encoding: res.headers["content-encoding"], length }));
        }).on("error", reject);
      });
    });
    expect(raw.encoding).toBe("br");
    expect(raw.length).toBeGreaterThan(0);
  });

  it("never serves a signed-in visitor a cached page, nor an anonymous visitor a signed-in one", async () => {
    const anonymous = await (await get("/7fs/Fun")).text();
    expect(anonymous).not.toContain("Create New Post");
    const signedIn = await get("/7fs/Fun", { cookie: editor.cookie });
    expect(signedIn.headers.get("x-cache")).toBeNull();
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
    expect(await signedIn.text()).toContain("Create New Post");
    const again = await get("/7fs/Fun");
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(await again.text()).not.toContain("Create New Post");
  });

  it("bypasses the cache for a request with a toast cookie (a per-visitor message)", async () => {
    await (await get("/contact")).text();
    const withToast = await get("/contact", { cookie: "toast=anything" });
    expect(withToast.headers.get("x-cache")).toBeNull();
    expect(withToast.headers.get("cache-control")).toBe("private, no-store");
  });

  it("never stores a response that sets a cookie or is not a 200", async () => {
    const missing = await get("/7fs/Fun/no-such-post");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-cache")).toBe("BYPASS");
    expect((await get("/7fs/Fun/no-such-post")).headers.get("x-cache")).toBe("BYPASS");
  });

  it("shows an edited post at once after the write returns, never the stale page", async () => {
    const before = await (await get(`/7fs/Fun/${slug}`)).text();
    expect(before).toContain("First words");
    expect((await get(`/7fs/Fun/${slug}`)).headers.get("x-cache")).toBe("HIT");
    const edit = await server.fetch(`/7fs/Fun/${slug}/edit`, {
      method: "POST",
      headers: { cookie: editor.cookie, origin: server.url },
      body: new URLSearchParams({ title: "Cached Post Original", content: "Second words", published: "on", media: "[]" }),
    });
    expect(edit.status).toBe(302);
    const after = await get(`/7fs/Fun/${slug}`);
    expect(after.headers.get("x-cache")).toBe("MISS");
    const html = await after.text();
    expect(html).toContain("Second words");
    expect(html).not.toContain("First words");
  });
});
