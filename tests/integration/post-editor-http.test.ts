import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../helpers/databases";
import { makePost, signedInAs } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * The editor's endpoints through the production server: autosave, revisions, the post form's
 * schedule and version fields, and what visitors and staff see of a scheduled post.
 */
describeEachDatabase("post editor over HTTP (autosave, revisions, scheduling, conflicts)", (ctx) => {
  let server: TestServer;
  let admin = "";
  let reader = "";
  beforeAll(async () => {
    process.env.LOG_LEVEL = "silent";
    server = await startTestServer();
    admin = (await signedInAs(ctx.db, "admin")).cookie;
    reader = (await signedInAs(ctx.db, "user")).cookie;
  });
  afterAll(() => server.close());

  const post = (path: string, body: Record<string, string>, cookie = admin) =>
    server.fetch(path, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body).toString(),
    });

  it("autosave: 401 for visitors, 403 for plain users, 400 for bad input, 200 for staff", async () => {
    const anonymous = await server.fetch("/api/posts/autosave", { method: "POST", body: new URLSearchParams({ category: "Fun" }) });
    expect(anonymous.status).toBe(401);
    expect((await post("/api/posts/autosave", { category: "Fun", title: "x" }, reader)).status).toBe(403);
    const bad = await post("/api/posts/autosave", { category: "Nowhere" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toHaveProperty("error");
    const ok = await post("/api/posts/autosave", { category: "Fun", title: "Half typed" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ savedAt: expect.any(String) });
    // The editor offers it back.
    const html = await (await server.fetch("/7fs/Fun/new", { headers: { cookie: admin } })).text();
    expect(html).toContain("Restore unsaved changes");
    expect((await post("/api/posts/autosave", { intent: "discard", category: "Fun" })).status).toBe(200);
    expect(await (await server.fetch("/7fs/Fun/new", { headers: { cookie: admin } })).text()).not.toContain("Restore unsaved changes");
  });

  it("revisions: staff only, 404 for a malformed id", async () => {
    const made = await makePost(ctx.db, { category: "Faith" });
    expect((await server.fetch(`/api/posts/${made.id}/revisions`)).status).toBe(401);
    expect((await server.fetch(`/api/posts/${made.id}/revisions`, { headers: { cookie: reader } })).status).toBe(403);
    expect((await server.fetch("/api/posts/not-a-uuid/revisions", { headers: { cookie: admin } })).status).toBe(404);
    const ok = await server.fetch(`/api/posts/${made.id}/revisions`, { headers: { cookie: admin } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ revisions: [] });
  });

  it("a scheduled post is 404 for visitors, previewable by staff, counted and filtered in the admin area; a stale version is refused", async () => {
    const title = `Scheduled over HTTP ${Date.now()}`;
    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    const at = new Date(Date.now() + 86_400_000).toISOString().slice(0, 16);
    const past = await post("/7fs/Family/new", { title, content: "Later.", schedule: "on", publishAt: "2001-01-01T08:00" });
    expect(past.status).toBe(400);
    expect(await past.text()).toContain("Publish at must be in the future");
    const created = await post("/7fs/Family/new", { title, content: "Later.", schedule: "on", publishAt: at });
    expect(created.status).toBe(302);
    expect(created.headers.get("location")).toBe(`/7fs/Family/${slug}`);
    expect((await server.fetch(`/7fs/Family/${slug}`)).status).toBe(404);
    // The toast and the staff's badge say when it goes live, in the site's zone (UTC here).
    const toastCookie = (created.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const staffPage = await server.fetch(`/7fs/Family/${slug}`, { headers: { cookie: `${admin}; ${toastCookie}` } });
    expect(staffPage.status).toBe(200);
    const staffHtml = (await staffPage.text()).replace(/<!-- -->/g, "");
    expect(staffHtml).toMatch(/Post scheduled for [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M \(UTC\)/);
    expect(staffHtml).toMatch(/>Scheduled for [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M \(UTC\)</);
    expect(await (await server.fetch("/7fs/Family")).text()).not.toContain(title);
    const dashboard = await (await server.fetch("/admin", { headers: { cookie: admin } })).text();
    expect(dashboard).toMatch(/data-testid="counter-Scheduled">[1-9]\d*</);
    const scheduled = (await (await server.fetch("/admin/blog?filter=scheduled", { headers: { cookie: admin } })).text()).replace(
      /<!-- -->/g,
      "",
    );
    expect(scheduled).toMatch(/Scheduled \([1-9]\d*\)/);
    expect(scheduled).toContain(`aria-label="Preview ${title}"`);
    expect(scheduled).toContain("(UTC)");

    const edit = await (await server.fetch(`/7fs/Family/${slug}/edit`, { headers: { cookie: admin } })).text();
    expect(edit).toContain('name="version" value="1"');
    // The editor is drawn in the admin shell: its sidebar, no public footer.
    expect(edit).toContain('data-testid="admin-sidebar"');
    expect(edit).not.toContain("<footer");
    expect(edit).toContain("Last saved ");
    expect((await post(`/7fs/Family/${slug}/edit`, { title, content: "Now.", published: "on", version: "1" })).status).toBe(302);
    const stale = await post(`/7fs/Family/${slug}/edit`, { title, content: "Stale.", published: "on", version: "1" });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("This post was changed by someone else. Reload to see their changes.");
    expect((await server.fetch(`/7fs/Family/${slug}`)).status).toBe(200);
  });
});
