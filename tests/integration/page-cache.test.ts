import { get as httpGet, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startContentVersion, stopContentVersion } from "~/server/content-version.server";
import { PUBLIC_CACHE_CONTROL } from "~/server/page-cache.server";
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

  /** The response as it went over the wire (fetch() decodes bodies itself). */
  const rawGet = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      httpGet(`${server.url}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      }).on("error", reject);
    });

  /** Every nonce attribute in a page, and the nonce its CSP header allows. */
  const noncesOf = (html: string, csp: string | null | undefined) => ({
    body: [...new Set([...html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]))],
    header: /'nonce-([^']+)'/.exec(csp ?? "")?.[1],
  });

  it("answers a hit from the front of the stack: access-log id, this response's nonce in header and body, gzip made at store time", async () => {
    await (await get("/testimonials")).text();
    const seen = new Set<string>();
    for (const acceptEncoding of ["identity", "gzip, deflate, br", "gzip"]) {
      const hit = await rawGet("/testimonials", { "accept-encoding": acceptEncoding });
      expect(hit.headers["x-cache"]).toBe("HIT");
      expect(hit.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(hit.headers["set-cookie"]).toBeUndefined();
      // Pages carry a nonce, so they are never sent br (its state cannot restart at the nonce).
      const encoding = acceptEncoding === "identity" ? undefined : "gzip";
      expect(hit.headers["content-encoding"]).toBe(encoding);
      expect(Number(hit.headers["content-length"])).toBe(hit.body.length);
      const html = (encoding ? gunzipSync(hit.body) : hit.body).toString();
      expect(html).toContain("</html>");
      const nonces = noncesOf(html, String(hit.headers["content-security-policy"]));
      expect(nonces.body).toHaveLength(1);
      expect(nonces.body[0]).toBe(nonces.header);
      seen.add(nonces.header ?? "");
    }
    // A nonce is never repeated, even though the body comes from one stored render.
    expect(seen.size).toBe(3);
  });

  it("answers hits before Express as server.js does: the same headers as the app's own hit path, a fresh matching nonce, 304, HEAD, cookie bypass", async () => {
    const front = await startTestServer({ hitPathFirst: true });
    try {
      const rawFront = (path: string, headers: Record<string, string> = {}, method = "GET") =>
        new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
          httpRequest(`${front.url}${path}`, { headers, method }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          })
            .on("error", reject)
            .end();
        });
      await (await front.fetch("/projects")).text();
      const viaApp = await rawGet("/projects", { "accept-encoding": "gzip" });
      const nonces = new Set<string>();
      const etags = new Set<string>();
      const lengths = new Map<string, number>();
      for (const acceptEncoding of ["gzip", "identity"]) {
        const hit = await rawFront("/projects", { "accept-encoding": acceptEncoding });
        expect(Number(hit.headers["content-length"])).toBe(hit.body.length);
        lengths.set(acceptEncoding, hit.body.length);
        expect(hit.headers["x-cache"]).toBe("HIT");
        expect(hit.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
        const without = (headers: IncomingHttpHeaders) =>
          Object.keys(headers)
            .filter((name) => !["date", "content-encoding", "content-length"].includes(name))
            .sort();
        expect(without(hit.headers)).toEqual(without(viaApp.headers));
        // (The ETag differs: the key and the page's absolute links carry each server's own host.)
        for (const name of ["x-frame-options", "permissions-policy", "referrer-policy", "cache-control", "vary", "content-type"]) {
          expect(hit.headers[name]).toBe(viaApp.headers[name]);
        }
        const csp = String(hit.headers["content-security-policy"]);
        const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? "";
        expect(csp.replace(nonce, "")).toBe(String(viaApp.headers["content-security-policy"]).replace(/'nonce-[^']+'/, "'nonce-'"));
        const html = (acceptEncoding === "gzip" ? gunzipSync(hit.body) : hit.body).toString();
        expect(noncesOf(html, csp)).toEqual({ body: [nonce], header: nonce });
        nonces.add(nonce);
        etags.add(String(hit.headers.etag));
      }
      expect(nonces.size).toBe(2);
      expect(etags.size).toBe(1);
      const [etag = ""] = etags;
      const notModified = await rawFront("/projects", { "if-none-match": etag });
      expect(notModified.status).toBe(304);
      expect(notModified.headers["content-security-policy"]).toBeUndefined();
      expect(notModified.headers["content-type"]).toBeUndefined();
      expect(notModified.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(notModified.headers["x-frame-options"]).toBe(viaApp.headers["x-frame-options"]);
      expect(notModified.headers.etag).toBe(etag);
      expect(notModified.body.length).toBe(0);
      const head = await rawFront("/projects", { "accept-encoding": "gzip" }, "HEAD");
      expect(head.headers["x-cache"]).toBe("HIT");
      expect(head.headers["content-encoding"]).toBe("gzip");
      expect(Number(head.headers["content-length"])).toBe(lengths.get("gzip"));
      expect(head.body.length).toBe(0);
      const signedIn = await rawFront("/projects", { cookie: editor.cookie });
      expect(signedIn.headers["x-cache"]).toBeUndefined();
      expect(signedIn.headers["cache-control"]).toBe("private, no-store");
    } finally {
      await front.close();
    }
  });

  it("answers feeds and sitemaps from the hit path before Express (type, ETag, 304), and has a newly published post in them at once", async () => {
    const front = await startTestServer({ hitPathFirst: true });
    try {
      const rawFront = (path: string, headers: Record<string, string> = {}) =>
        new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
          httpGet(`${front.url}${path}`, { headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
          }).on("error", reject);
        });
      const feeds = {
        "/rss.xml": "application/rss+xml",
        "/7fs/Fun/rss.xml": "application/rss+xml",
        "/sitemap.xml": "application/xml",
        "/sitemaps/posts-1.xml": "application/xml",
      };
      const etags = new Map<string, string>();
      for (const [path, type] of Object.entries(feeds)) {
        await (await front.fetch(path)).text();
        const hit = await rawFront(path);
        expect(hit.status, path).toBe(200);
        expect(hit.headers["x-cache"], path).toBe("HIT");
        expect(hit.headers["content-type"], path).toContain(type);
        expect(hit.headers["cache-control"], path).toBe(PUBLIC_CACHE_CONTROL);
        expect(hit.headers.vary, path).toBe("Accept-Encoding");
        const etag = String(hit.headers.etag);
        expect((await rawFront(path, { "if-none-match": etag })).status, path).toBe(304);
        etags.set(path, etag);
      }
      const title = `Feed Fresh ${Date.now()}`;
      const created = await front.fetch("/7fs/Fun/new", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: front.url, cookie: editor.cookie },
        body: new URLSearchParams({ title, content: "In the feed at once.", published: "on", media: "[]" }).toString(),
      });
      expect(created.status).toBe(302);
      const address = created.headers.get("location") ?? "";
      for (const path of Object.keys(feeds)) {
        const after = await rawFront(path, { "if-none-match": etags.get(path) ?? "" });
        expect(after.status, path).toBe(200);
        expect(after.headers["x-cache"], path).toBe("MISS");
        expect(after.headers.etag, path).not.toBe(etags.get(path));
        // The sitemap index names the post sitemaps (its lastmod moves), not the posts.
        if (path !== "/sitemap.xml") expect(after.body, path).toContain(path.startsWith("/sitemaps/") ? address : title);
        expect((await rawFront(path)).headers["x-cache"], path).toBe("HIT");
      }
    } finally {
      await front.close();
    }
  });

  it("sends the same headers for HEAD on a hit as for GET, without a body", async () => {
    await (await get("/recent-roles")).text();
    const hit = await rawGet("/recent-roles", { "accept-encoding": "gzip" });
    const head = await server.fetch("/recent-roles", { method: "HEAD", headers: { "accept-encoding": "gzip" } });
    expect(head.headers.get("x-cache")).toBe("HIT");
    expect(head.headers.get("content-length")).toBe(hit.headers["content-length"]);
    expect(head.headers.get("content-encoding")).toBe("gzip");
    expect(head.headers.get("etag")).toBe(hit.headers.etag);
    expect(await head.text()).toBe("");
  });

  it("never answers a request with a session cookie from the cache, even a page stored for anonymous visitors", async () => {
    const anonymous = await get("/about");
    await anonymous.text();
    expect((await get("/about")).headers.get("x-cache")).toBe("HIT");
    const signedIn = await get("/about", { cookie: editor.cookie });
    expect(signedIn.headers.get("x-cache")).toBeNull();
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
    await signedIn.text();
  });

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
    // One Cache-Control, the cache's: the feed route's own would contradict it.
    const hit = await get("/rss.xml");
    expect(hit.headers.get("x-cache")).toBe("HIT");
    expect(hit.headers.get("cache-control")).toBe(PUBLIC_CACHE_CONTROL);
    expect(hit.headers.get("vary")).toBe("Accept-Encoding");
    await hit.text();
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
