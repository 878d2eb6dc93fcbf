import http from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { asc } from "drizzle-orm";
import { INBOX_PAGE_SIZE } from "~/features/contact/contact.server";
import { blogPosts, contactMessages, projects } from "~/server/db/schema.server";
import { describeEachDatabase } from "../helpers/databases";
import { makePost, signedInAs } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * The admin area and the sign-in endpoints over raw HTTP: dashboard counters, blog management past
 * 50 posts, and hostile requests (wrong methods, malformed bodies, huge bodies) that must get a 4xx
 * with a message a person can act on — never a 500.
 */
describeEachDatabase("admin area and sign-in over raw HTTP", (ctx) => {
  let server: TestServer;
  let admin = "";
  beforeAll(async () => {
    process.env.LOG_LEVEL = "silent";
    server = await startTestServer();
    const signed = await signedInAs(ctx.db, "admin");
    admin = signed.cookie;
    // 55 posts: 40 published, 15 drafts.
    for (let i = 1; i <= 55; i++) {
      await makePost(ctx.db, {
        authorId: signed.userId,
        title: `Paged post ${String(i).padStart(2, "0")}`,
        category: "Finance",
        published: i <= 40,
      });
    }
  });
  afterAll(() => server.close());

  const page = async (path: string) => {
    const response = await server.fetch(path, { headers: { cookie: admin } });
    expect(response.status).toBe(200);
    return response.text();
  };
  /** The address of the pager's rel=prev or rel=next link. */
  const linkHref = (html: string, rel: "prev" | "next") =>
    (html.match(new RegExp(`<a[^>]*rel="${rel}"[^>]*>`))?.[0].match(/href="([^"]*)"/)?.[1] ?? "").replace(/&amp;/g, "&");
  const editLinks = (html: string) => html.match(/aria-label="Edit Paged post \d\d"/g) ?? [];

  it("the dashboard shows the counters from the database", async () => {
    const posts = await ctx.db.select({ published: blogPosts.published }).from(blogPosts);
    const projectCount = (await ctx.db.select({ id: projects.id }).from(projects)).length;
    const html = await page("/admin");
    const counter = (label: string) => html.match(new RegExp(`data-testid="counter-${label}">(\\d+)<`))?.[1];
    expect(counter("Total Posts")).toBe(String(posts.length));
    expect(counter("Published")).toBe(String(posts.filter((p) => p.published).length));
    expect(counter("Drafts")).toBe(String(posts.filter((p) => !p.published).length));
    expect(counter("Projects")).toBe(String(projectCount));
    for (const text of ["Welcome back! Here&#x27;s an overview of your content.", "Quick Actions", "Getting Started"])
      expect(html).toContain(text);
  });

  it("blog management lists 50 posts a page and pages on past them, per filter", async () => {
    const first = await page("/admin/blog");
    const label = (html: string) => html.replace(/<!-- -->/g, "");
    expect(label(first)).toContain("All (55)");
    expect(label(first)).toContain("Published (40)");
    expect(label(first)).toContain("Drafts (15)");
    expect(editLinks(first)).toHaveLength(50);
    // Keyset pages: Next is the page after the first page's last post; Previous from there is the first page again.
    const nextHref = linkHref(first, "next");
    expect(nextHref).toMatch(/^\/admin\/blog\?after=[0-9a-f-]{36}$/);
    expect(first).not.toContain('rel="prev"');
    const second = await page(nextHref);
    expect(editLinks(second)).toHaveLength(5);
    expect(second).not.toContain('rel="next"');
    // Together: every post exactly once.
    expect(new Set([...editLinks(first), ...editLinks(second)]).size).toBe(55);
    const prev = linkHref(second, "prev");
    expect(prev).toMatch(/^\/admin\/blog\?before=[0-9a-f-]{36}$/);
    expect(editLinks(await page(prev))).toEqual(editLinks(first));
    const drafts = await page("/admin/blog?filter=drafts");
    expect(editLinks(drafts)).toHaveLength(15);
    expect(drafts).not.toContain('rel="next"');
    // Views only for published posts.
    expect(drafts).not.toMatch(/aria-label="View Paged post/);
  });

  it("every numbered list answers a page past its last with 404 (one pagination rule)", async () => {
    for (const path of ["/admin/messages?page=2", "/7fs/Finance?page=5"]) {
      const response = await server.fetch(path, { headers: { cookie: admin } });
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toContain("Oops! Page not found");
    }
  });

  it("deleting the only message of the inbox's last page goes to the new last page, not to a 404", async () => {
    await ctx.db.delete(contactMessages);
    const base = Date.UTC(2026, 0, 1);
    await ctx.db.insert(contactMessages).values(
      Array.from({ length: INBOX_PAGE_SIZE + 1 }, (_, i) => ({
        name: `Paged ${i}`,
        email: "p@example.com",
        message: "m",
        createdAt: new Date(base + i * 60_000),
      })),
    );
    const [oldest] = await ctx.db.select({ id: contactMessages.id }).from(contactMessages).orderBy(asc(contactMessages.createdAt)).limit(1);
    const response = await server.fetch("/admin/messages?page=2", {
      method: "POST",
      headers: { origin: server.url, cookie: admin },
      body: new URLSearchParams({ intent: "delete", id: oldest?.id ?? "" }),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/admin/messages");
    expect(await ctx.db.select({ id: contactMessages.id }).from(contactMessages)).toHaveLength(INBOX_PAGE_SIZE);
    await ctx.db.delete(contactMessages);
  });

  /** Like curl: a new connection per request, the body sent as given. */
  function raw(path: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const request = http.request(new URL(path, server.url), { method, headers, agent: false }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      });
      // The server may answer (413) and close before the whole body is sent.
      request.on("error", (error: NodeJS.ErrnoException) =>
        error.code === "EPIPE" || error.code === "ECONNRESET" ? undefined : reject(error),
      );
      request.end(body);
    });
  }

  const form = (fields: Record<string, string>) => ({
    body: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  const json = (body: string) => ({ body, headers: { "content-type": "application/json" } });
  const multipartGarbage = { body: "garbage", headers: { "content-type": "multipart/form-data; boundary=xx" } };

  const hostile: {
    name: string;
    path: string;
    method?: string;
    init: { body?: string; headers?: Record<string, string> };
    status: number;
    message: RegExp;
    signedIn?: boolean;
  }[] = [
    { name: "GET the login API", path: "/api/auth/login", method: "GET", init: {}, status: 405, message: /Method not allowed/ },
    { name: "PUT the login API", path: "/api/auth/login", method: "PUT", init: json("{}"), status: 405, message: /Method not allowed/ },
    { name: "malformed JSON to the login API", path: "/api/auth/login", init: json("{bad"), status: 400, message: /must be JSON/ },
    { name: "a JSON array to the login API", path: "/api/auth/login", init: json("[1]"), status: 400, message: /JSON object/ },
    {
      name: "missing fields to the login API",
      path: "/api/auth/login",
      init: json('{"verificationToken":"x"}'),
      status: 400,
      message: /Email is required/,
    },
    {
      name: "a huge body to the login API",
      path: "/api/auth/login",
      init: json(`{"email":"${"a".repeat(2_000_000)}"}`),
      status: 413,
      message: /too large/,
    },
    {
      name: "JSON to the sign-in form",
      path: "/auth",
      init: json('{"email":"a"}'),
      status: 415,
      message: /application\/x-www-form-urlencoded or multipart\/form-data/,
    },
    {
      name: "a broken multipart body to the sign-in form",
      path: "/auth",
      init: multipartGarbage,
      status: 400,
      message: /could not be read/,
    },
    { name: "DELETE on the sign-in form", path: "/auth", method: "DELETE", init: {}, status: 405, message: /Method not allowed/ },
    { name: "a huge sign-in form", path: "/auth", init: form({ email: "a".repeat(1_000_000) }), status: 413, message: /too large/ },
    {
      name: "a sign-in form without an email",
      path: "/auth",
      init: form({ intent: "login", verificationToken: "x" }),
      status: 400,
      message: /Email is required/,
    },
    {
      name: "a reset form with an undecodable email",
      path: "/auth",
      init: { body: "intent=forgot&email=%zz&verificationToken=x", headers: { "content-type": "application/x-www-form-urlencoded" } },
      status: 400,
      message: /Invalid email address/,
    },
    {
      name: "JSON to projects",
      path: "/admin/projects",
      init: json("{}"),
      status: 415,
      message: /application\/x-www-form-urlencoded or multipart\/form-data/,
      signedIn: true,
    },
    {
      name: "DELETE on projects",
      path: "/admin/projects",
      method: "DELETE",
      init: {},
      status: 405,
      message: /Method not allowed/,
      signedIn: true,
    },
    {
      name: "an unknown intent on projects",
      path: "/admin/projects",
      init: form({ intent: "explode" }),
      status: 400,
      message: /./,
      signedIn: true,
    },
    {
      name: "a huge users form",
      path: "/admin/users",
      init: form({ intent: "create", email: "a".repeat(1_000_000) }),
      status: 413,
      message: /too large/,
      signedIn: true,
    },
    {
      name: "a broken multipart body to users",
      path: "/admin/users",
      init: multipartGarbage,
      status: 400,
      message: /could not be read/,
      signedIn: true,
    },
    {
      name: "JSON to the inbox",
      path: "/admin/messages",
      init: json("{}"),
      status: 415,
      message: /application\/x-www-form-urlencoded or multipart\/form-data/,
      signedIn: true,
    },
    {
      name: "stop auto-approving a malformed email (comments)",
      path: "/admin/comments",
      init: form({ intent: "untrust", email: "not an address" }),
      status: 400,
      message: /Invalid email address/,
      signedIn: true,
    },
    {
      name: "auto-approve a comment that does not exist",
      path: "/admin/comments",
      init: form({ intent: "trust", id: "00000000-0000-4000-8000-000000000000" }),
      status: 404,
      message: /Comment not found/,
      signedIn: true,
    },
    {
      name: "a POST to the dashboard (no action)",
      path: "/admin",
      init: form({ x: "1" }),
      status: 405,
      message: /does not accept that kind of request/,
      signedIn: true,
    },
  ];

  for (const probe of hostile) {
    it(`${probe.name}: ${probe.status} with a message`, async () => {
      const headers: Record<string, string> = { ...probe.init.headers, origin: server.url };
      if (probe.signedIn) headers.cookie = admin;
      const { status, text } = await raw(probe.path, probe.method ?? "POST", headers, probe.init.body);
      expect(status).toBe(probe.status);
      // Admin pages show the message in their error boundary; the sign-in page hands it to its toast
      // (it is in the page's action data); the API answers JSON. Never a stack trace.
      const visible = probe.path === "/auth" ? text : text.replace(/<script[\s\S]*?<\/script>/g, "");
      expect(visible).toMatch(probe.message);
      expect(text).not.toMatch(/at [\w.]+ \(|node_modules/);
    });
  }
});
