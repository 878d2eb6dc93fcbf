import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPost } from "~/features/posts/write/posts.server";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs } from "../helpers/factories";
import { tempDir } from "../helpers/temp-dir";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** A Python 3 that has feedparser (the parser feed readers are checked with), or null. */
function findFeedparserPython(): string | null {
  for (const bin of ["python3", "/usr/bin/python3"]) {
    const r = spawnSync(bin, ["-c", "import feedparser"], { stdio: "ignore" });
    if (r.status === 0) return bin;
  }
  return null;
}
const PYTHON = findFeedparserPython();

const FEEDPARSER_SCRIPT = `
import json, sys, feedparser
f = feedparser.parse(sys.stdin.buffer.read())
print(json.dumps({
  "bozo": int(f.bozo), "error": str(f.get("bozo_exception", "")), "version": f.version,
  "links": f.feed.get("links", []),
  "entries": [{"id": e.get("id"), "link": e.get("link"), "published": e.get("published"), "title": e.get("title")} for e in f.entries],
}))
`;

interface ParsedFeed {
  bozo: number;
  error: string;
  version: string;
  links: { rel: string; href: string; type?: string }[];
  entries: { id?: string; link?: string; published?: string; title?: string }[];
}

function feedparser(xml: string): ParsedFeed {
  const dir = tempDir("feedparser-");
  const script = path.join(dir, "parse.py");
  fs.writeFileSync(script, FEEDPARSER_SCRIPT);
  // PYTHON is non-null where this runs (the test is skipped otherwise).
  const out = execFileSync(PYTHON ?? "python3", [script], { input: xml, encoding: "utf8" });
  return JSON.parse(out) as ParsedFeed;
}

/** POSTs a form body over a raw socket (declared length or chunked) and returns everything the server sent. */
function rawPost(base: string, pathname: string, cookie: string, body: Buffer, chunked: boolean): Promise<string> {
  const url = new URL(base);
  return new Promise<string>((resolve, reject) => {
    const received: Buffer[] = [];
    const socket = net.connect(Number(url.port), url.hostname, () => {
      const head = [
        `POST ${pathname} HTTP/1.1`,
        `Host: ${url.host}`,
        `Origin: ${base}`,
        `Cookie: ${cookie}`,
        "Content-Type: application/x-www-form-urlencoded",
        "Connection: close",
        chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${body.byteLength}`,
        "",
        "",
      ].join("\r\n");
      socket.write(head);
      socket.write(
        chunked ? Buffer.concat([Buffer.from(`${body.byteLength.toString(16)}\r\n`), body, Buffer.from("\r\n0\r\n\r\n")]) : body,
      );
    });
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    socket.on("close", () => resolve(Buffer.concat(received).toString("utf8")));
    // The server may close while we are still sending; what it answered is already in `received`.
    socket.on("error", (error) => (received.length > 0 ? undefined : reject(error)));
  });
}

const HOSTILE_TITLE = `Feeds </script> & "quotes" <b>bold</b> \u0001 ☕`;

describeEachDatabase("blog robustness", (ctx) => {
  let server: TestServer;
  let staff: { userId: string; cookie: string };
  let admin: { userId: string; cookie: string };
  beforeAll(async () => {
    process.env.UPLOAD_DIR = tempDir("blog-robust-uploads-");
    server = await startTestServer();
    staff = await signedInAs(ctx.db, "moderator");
    admin = await signedInAs(ctx.db, "admin");
  });
  afterAll(() => server.close());

  describe("feeds", () => {
    async function feed(p: string): Promise<{ status: number; type: string | null; xml: string }> {
      const r = await server.fetch(p);
      return { status: r.status, type: r.headers.get("content-type"), xml: await r.text() };
    }

    it("are well-formed RSS 2.0 with absolute links, guid, pubDate and atom:link rel=self", async () => {
      await createPost(
        ctx.db,
        { id: staff.userId, role: "moderator" },
        { title: HOSTILE_TITLE, content: "line one\n\n  line two ]]> <x>", category: "Family", published: true },
      );
      for (const p of ["/rss.xml", "/7fs/Family/rss.xml", "/7fs/Figurehead/rss.xml"]) {
        const { status, type, xml } = await feed(p);
        expect(status, p).toBe(200);
        expect(type).toBe("application/rss+xml; charset=utf-8");
        expect(XMLValidator.validate(xml), p).toBe(true);
        const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === "item" }).parse(xml) as {
          rss: {
            "@_version": string;
            channel: {
              link: string;
              "atom:link": { "@_href": string; "@_rel": string };
              item?: { link: string; guid: { "#text": string }; pubDate: string }[];
            };
          };
        };
        expect(doc.rss["@_version"]).toBe("2.0");
        const channel = doc.rss.channel;
        expect(channel["atom:link"]["@_rel"]).toBe("self");
        expect(channel["atom:link"]["@_href"]).toMatch(new RegExp(`^https?://[^/]+${p.replace(/\./g, "\\.")}$`));
        for (const item of channel.item ?? []) {
          expect(item.link).toMatch(/^https?:\/\//);
          expect(item.guid["#text"]).toBe(item.link);
          expect(new Date(item.pubDate).toUTCString()).toBe(item.pubDate);
        }
      }
    });

    it("answers an unknown category's feed with a 404 and a message", async () => {
      const r = await server.fetch("/7fs/Food/rss.xml");
      expect(r.status).toBe(404);
      expect(((await r.json()) as { error: string }).error).toBe(
        "There is no such category. The categories are Faith, Finance, Fitness, Fun, Friends, Family, Figurehead.",
      );
    });

    it.skipIf(!PYTHON)("parse cleanly with Python feedparser (bozo 0)", async () => {
      await createPost(
        ctx.db,
        { id: staff.userId, role: "moderator" },
        { title: `${HOSTILE_TITLE} two`, content: "body & more", category: "Fun", published: true },
      );
      for (const p of ["/rss.xml", "/7fs/Fun/rss.xml", "/7fs/Faith/rss.xml"]) {
        const parsed = feedparser((await feed(p)).xml);
        expect(parsed.bozo, `${p}: ${parsed.error}`).toBe(0);
        expect(parsed.version).toBe("rss20");
        expect(parsed.links.some((l) => l.rel === "self" && l.href.endsWith(p))).toBe(true);
        for (const e of parsed.entries) {
          expect(e.id).toMatch(/^https?:\/\//);
          expect(e.link).toBe(e.id);
          expect(e.published).toBeTruthy();
        }
        if (p !== "/7fs/Faith/rss.xml")
          expect(parsed.entries.map((e) => e.title)).toContain(`Feeds </script> & "quotes" <b>bold</b>  ☕ two`);
      }
    });
  });

  describe("raw HTTP: wrong methods and bodies get 4xx with a message, never a 500", () => {
    it("read-only feeds, files and the listing refuse other methods with 405", async () => {
      for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
        for (const p of ["/rss.xml", "/7fs/Faith/rss.xml", "/uploads/blog-images/u/1-abc.jpg"]) {
          const r = await server.fetch(p, { method, headers: { origin: server.url } });
          expect(r.status, `${method} ${p}`).toBe(405);
          expect(r.headers.get("allow"), `${method} ${p}`).toMatch(/^GET, HEAD/);
          // Every method is refused by the app-wide guard (server/app.ts), a POST because the address has no action.
          expect(await r.text()).toMatch(/This address only answers GET requests\.|Method not allowed\./);
        }
        const page = await server.fetch("/7fs/Faith", { method, headers: { origin: server.url } });
        expect(page.status, `${method} /7fs/Faith`).toBe(405);
        expect(page.headers.get("allow"), `${method} /7fs/Faith`).toBe(method === "POST" ? "GET, HEAD" : "GET, HEAD, POST");
        const html = await page.text();
        // The listing's 405 is every page's: the root error page's sentence (server/app.ts sets Allow).
        expect(html).toMatch(/This page does not accept that kind of request\.|Method not allowed\./);
        expect(html).not.toContain("did not provide an `action`");
      }
    });

    it("the post page and the post form answer bodiless or non-form posts with 4xx", async () => {
      const post = await createPost(
        ctx.db,
        { id: admin.userId, role: "admin" },
        { title: "Robust target post", content: "c", category: "Faith", published: true },
      );
      const targets = [`/7fs/Faith/${post.slug}`, "/7fs/Faith/new", `/7fs/Faith/${post.slug}/edit`];
      for (const p of targets) {
        for (const [label, init] of [
          ["no body", {}],
          ["JSON", { headers: { "content-type": "application/json" }, body: '{"title":' }],
          ["broken multipart", { headers: { "content-type": "multipart/form-data; boundary=zz" }, body: "garbage" }],
        ] as const) {
          for (const who of [admin.cookie, staff.cookie, undefined]) {
            const init2: RequestInit = {
              method: "POST",
              ...init,
              headers: { ...("headers" in init ? init.headers : {}), origin: server.url, ...(who ? { cookie: who } : {}) },
            };
            const r = await server.fetch(p, init2);
            expect(r.status, `${label} → ${p}`).toBeGreaterThanOrEqual(300);
            expect(r.status, `${label} → ${p}`).toBeLessThan(500);
          }
        }
        for (const method of ["PUT", "DELETE", "PATCH"]) {
          const r = await server.fetch(p, { method, headers: { origin: server.url, cookie: admin.cookie } });
          expect(r.status, `${method} ${p}`).toBe(405);
        }
      }
      // Odd encodings in the slug: a NUL byte (PostgreSQL refuses it in text) and an over-long slug.
      for (const slug of ["%00", "a%00b", "x".repeat(400)]) {
        // A NUL byte is refused by the app-wide guard (400) before any route; an over-long slug is a 404.
        const notFound = slug.includes("%00") ? 400 : 404;
        expect((await server.fetch(`/7fs/Faith/${slug}`)).status, slug).toBe(notFound);
        expect((await server.fetch(`/7fs/Faith/${slug}/edit`, { headers: { cookie: admin.cookie } })).status, slug).toBe(notFound);
        const del = await server.fetch(`/7fs/Faith/${slug}`, {
          method: "POST",
          headers: { origin: server.url, cookie: admin.cookie, "content-type": "application/x-www-form-urlencoded" },
          body: "intent=delete",
        });
        expect(del.status, slug).toBe(notFound);
      }
      // A huge form (declared or chunked) is refused with 413 and a message, without being buffered whole.
      // Sent over a raw socket: the server answers before reading the rest, so fetch would see a reset.
      const huge = Buffer.from(`title=x&content=${"a".repeat(3 * 1024 * 1024)}`);
      for (const p of ["/7fs/Faith/new", `/7fs/Faith/${post.slug}`]) {
        for (const chunked of [false, true]) {
          const response = await rawPost(server.url, p, admin.cookie, huge, chunked);
          // Declared: 413 from the app-wide body limit; chunked (no length): 411 — either way unread.
          expect(response.split("\r\n")[0], `${p} chunked=${chunked}`).toMatch(chunked ? /^HTTP\/1\.1 411/ : /^HTTP\/1\.1 413/);
          expect(response).toMatch(chunked ? /Content-Length/ : /too large \(at most 2 MB\)/);
        }
      }
      // Still there: none of the malformed requests deleted it.
      expect((await server.fetch(`/7fs/Faith/${post.slug}`)).status).toBe(200);
    });
  });

  describe("category listing", () => {
    it("paginates 12 a page with crawlable links, a per-page canonical and a 404 past the end", async () => {
      const actor = { id: staff.userId, role: "moderator" as const };
      for (let i = 1; i <= 13; i++) {
        await createPost(ctx.db, actor, {
          title: `Paged Figurehead post ${i}`,
          content: `body ${i}`,
          category: "Figurehead",
          published: true,
        });
      }
      const first = await (await server.fetch("/7fs/Figurehead")).text();
      expect(first.match(/<h2[^>]*>Paged Figurehead post \d+<\/h2>/g)).toHaveLength(12);
      expect(first).toContain("Page 1 of 2");
      expect(first).toMatch(/<a rel="next"[^>]* href="\/7fs\/Figurehead\?page=2"/);
      expect(first).not.toContain('rel="prev"');
      // Short US date on the cards, e.g. "Nov 23, 2026".
      expect(first).toMatch(/<p class="[^"]*">[A-Z][a-z]{2} \d{1,2}, \d{4}<\/p>/);
      const second = await server.fetch("/7fs/Figurehead?page=2");
      expect(second.status).toBe(200);
      const html = await second.text();
      expect(html).toContain("Paged Figurehead post 1<");
      expect(html).toContain("Page 2 of 2");
      expect(html).toMatch(/<a rel="prev"[^>]* href="\/7fs\/Figurehead"/);
      expect(html).toMatch(/<link rel="canonical" href="https?:\/\/[^"]+\/7fs\/Figurehead\?page=2"\/>/);
      expect((await server.fetch("/7fs/Figurehead?page=3")).status).toBe(404);
      // A malformed page number is page 1, not an error.
      expect((await server.fetch("/7fs/Figurehead?page=%FF")).status).toBe(200);
    });
  });

  describe("post page headers", () => {
    it("drafts and missing posts carry X-Robots-Tag noindex and are not stored by shared caches", async () => {
      const draft = await createPost(
        ctx.db,
        { id: admin.userId, role: "admin" },
        { title: "Header draft", content: "c", category: "Fun", published: false },
      );
      const live = await createPost(
        ctx.db,
        { id: admin.userId, role: "admin" },
        { title: "Header live", content: "c", category: "Fun", published: true },
      );
      const d = await server.fetch(`/7fs/Fun/${draft.slug}`, { headers: { cookie: admin.cookie } });
      expect(d.status).toBe(200);
      expect(d.headers.get("x-robots-tag")).toBe("noindex");
      expect(d.headers.get("cache-control")).toBe("private, no-store");
      const missing = await server.fetch(`/7fs/Fun/${draft.slug}`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get("x-robots-tag")).toBe("noindex");
      expect(await missing.text()).toContain("Article Not Found");
      const l = await server.fetch(`/7fs/Fun/${live.slug}`);
      expect(l.status).toBe(200);
      expect(l.headers.get("x-robots-tag")).toBeNull();
      // No featured image: the card image is the post's generated share image, absolute; a
      // draft's is the site default.
      expect(await l.text()).toMatch(
        new RegExp(`<meta property="og:image" content="https?://[^"]+/share-images/post/${live.id}/[a-f0-9]{24}\\.png"/>`),
      );
      expect(await d.text()).toMatch(/<meta property="og:image" content="https?:\/\/[^"]+\/images\/og\/default\.jpg"\/>/);
      expect(await (await server.fetch("/7fs/Fun")).text()).toMatch(
        /<meta property="og:image" content="https?:\/\/[^"]+\/share-images\/category\/Fun\/[a-f0-9]{24}\.png"\/>/,
      );
    });
  });

  describe("post page head", () => {
    it("has valid BlogPosting JSON-LD, absolute OG/Twitter image, canonical and a one-line description", async () => {
      const post = await createPost(
        ctx.db,
        { id: staff.userId, role: "moderator" },
        {
          title: `JSON-LD </script><script>alert(1)</script> post`,
          content: "First line\n\n   second   line with </script> inside",
          category: "Fitness",
          published: true,
          featuredImageUrl: "/uploads/blog-images/u/1-abc.jpg",
          featuredImageAlt: "A runner at dawn",
          media: [{ mediaType: "video", mediaUrl: "https://example.com/clip.mp4", caption: "A clip" }],
        },
      );
      const html = await (await server.fetch(`/7fs/Fitness/${post.slug}`)).text();
      const scripts = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? "");
      expect(scripts).toHaveLength(1);
      const ld = JSON.parse(scripts[0] ?? "") as Record<string, unknown>;
      expect(ld["@type"]).toBe("BlogPosting");
      expect(ld.headline).toBe(`JSON-LD </script><script>alert(1)</script> post`);
      expect(ld.image).toMatch(/^https?:\/\/[^/]+\/uploads\/blog-images\/u\/1-abc\.jpg$/);
      expect(ld.url).toMatch(new RegExp(`/7fs/Fitness/${post.slug}$`));
      expect(ld.author).toMatchObject({ "@type": "Organization" });
      expect(ld.datePublished).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(html).not.toContain("<script>alert(1)</script>");
      expect(html).toMatch(/<meta property="og:image" content="https?:\/\/[^"]+\/uploads\/blog-images\/u\/1-abc\.jpg"\/>/);
      expect(html).toMatch(/<meta name="twitter:image" content="https?:\/\/[^"]+\/uploads\/blog-images\/u\/1-abc\.jpg"\/>/);
      expect(html).toMatch(new RegExp(`<link rel="canonical" href="https?://[^"]+/7fs/Fitness/${post.slug}"/>`));
      expect(html).toContain('<meta name="description" content="First line second line with &lt;/script&gt; inside"/>');
      expect(html).toContain(
        '<link rel="alternate" type="application/rss+xml" title="Fitness — 7 Fs Framework" href="/7fs/Fitness/rss.xml"/>',
      );
      // <Links> gives the root's links this response's CSP nonce.
      expect(html).toMatch(
        /<link (?:nonce="[^"]+" )?rel="alternate" type="application\/rss\+xml" title="7 Fs Framework" href="\/rss.xml"\/>/,
      );
      // The video item: no empty <track> (invalid HTML), a label from the caption.
      expect(html).toMatch(/<video[^>]*aria-label="A clip"/);
      expect(html).not.toContain("<track");
      expect(html.match(/\d+ min read/g)?.[0]).toBe("1 min read");
      // Long US date on the post page, e.g. "November 23, 2026".
      expect(html).toMatch(
        /<time(?: class="[^"]*")? dateTime="[^"]+">(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}<\/time>/,
      );
    });
  });
});
