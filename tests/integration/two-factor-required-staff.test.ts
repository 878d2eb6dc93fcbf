import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { TWO_FACTOR_REQUIRED } from "~/features/auth/guards.server";
import { saveSecuritySettings } from "~/features/settings/settings.server";
import { blogPosts, passkeys } from "~/server/db/schema.server";
import { describeEachDatabase } from "../helpers/databases";
import { makePost, signedInAs } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * 'Require two-factor authentication' covers every staff write, not only /admin/*: the post
 * editor's pages and the post page's delete send a staff member without 2FA to set it up; the staff
 * APIs (/api/uploads, /api/posts/*) answer 403 with the reason. A passkey counts as 2FA.
 */
describeEachDatabase("require 2FA outside /admin", (ctx) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const request = (path: string, cookie: string, init: RequestInit = {}) =>
    server.fetch(path, { ...init, headers: { origin: server.url, cookie, ...init.headers } });
  const postForm = (path: string, cookie: string, fields: Record<string, string>) =>
    request(path, cookie, { method: "POST", body: new URLSearchParams(fields) });
  const postCount = async () => (await ctx.db.select({ n: count() }).from(blogPosts))[0]?.n ?? 0;

  it("sends a moderator without 2FA to /admin/account from the editor, refuses the staff APIs with a clear 403, and lets them through with a passkey", async () => {
    const admin = await signedInAs(ctx.db, "admin");
    const moderator = await signedInAs(ctx.db, "moderator");
    const post = await makePost(ctx.db);
    const postPage = `/7fs/Fun/${post.slug}`;
    await saveSecuritySettings(ctx.db, admin.actor, { requireTwoFactor: "on" });
    try {
      for (const path of ["/7fs/Fun/new", `${postPage}/edit`, "/7fs/Fun/new.data"]) {
        const response = await request(path, moderator.cookie, { redirect: "manual" });
        if (path.endsWith(".data")) {
          expect(response.status, path).toBe(202);
          expect(await response.text(), path).toContain("/admin/account");
        } else {
          expect(response.status, path).toBe(302);
          expect(response.headers.get("location"), path).toBe("/admin/account");
        }
      }
      const before = await postCount();
      const created = await postForm("/7fs/Fun/new", moderator.cookie, { title: "Sneaky", content: "Body", category: "Fun" });
      expect(created.status).toBe(302);
      expect(created.headers.get("location")).toBe("/admin/account");
      const deleted = await postForm(postPage, moderator.cookie, { intent: "delete" });
      expect(deleted.headers.get("location")).toBe("/admin/account");
      expect(await postCount()).toBe(before);
      // Reading a post is not a write: it stays open.
      expect((await request(postPage, moderator.cookie)).status).toBe(200);

      const apis: [string, RequestInit][] = [
        ["/api/posts/preview", { method: "POST", body: new URLSearchParams({ content: "# Hi" }) }],
        ["/api/posts/autosave", { method: "POST", body: new URLSearchParams({ title: "Draft", content: "Body" }) }],
        [`/api/posts/${post.id}/revisions`, {}],
        ["/api/uploads", { method: "POST", body: new FormData() }],
      ];
      for (const [path, init] of apis) {
        const response = await request(path, moderator.cookie, init);
        expect(response.status, path).toBe(403);
        expect(response.headers.get("content-type"), path).toMatch(/application\/json/);
        expect(await response.json(), path).toEqual({ error: TWO_FACTOR_REQUIRED });
      }
      // A plain user is refused as before: the rule is about staff, the permission about everyone.
      const user = await signedInAs(ctx.db, "user");
      const refused = await request("/api/posts/preview", user.cookie, apis[0]?.[1]);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: "You don't have permission to write posts." });

      // A passkey is two-factor authentication.
      await ctx.db.insert(passkeys).values({
        id: `cred-${moderator.id}`,
        userId: moderator.id,
        name: "Laptop",
        publicKey: "AQID",
        deviceType: "singleDevice",
      });
      expect((await request("/7fs/Fun/new", moderator.cookie, { redirect: "manual" })).status).toBe(200);
      const preview = await request("/api/posts/preview", moderator.cookie, {
        method: "POST",
        body: new URLSearchParams({ content: "# Hi" }),
      });
      expect(preview.status).toBe(200);
      await ctx.db.delete(passkeys).where(eq(passkeys.userId, moderator.id));
    } finally {
      await saveSecuritySettings(ctx.db, admin.actor, { requireTwoFactor: "" });
    }
    // The rule off: the same moderator without 2FA writes again.
    expect((await request("/7fs/Fun/new", moderator.cookie, { redirect: "manual" })).status).toBe(200);
    expect(
      (await request("/api/posts/preview", moderator.cookie, { method: "POST", body: new URLSearchParams({ content: "x" }) })).status,
    ).toBe(200);
  });

  it("refuses the resume upload to an admin without 2FA, and sends staff without it from a draft to set it up", async () => {
    const admin = await signedInAs(ctx.db, "admin");
    const moderator = await signedInAs(ctx.db, "moderator");
    const draft = await makePost(ctx.db, { published: false });
    const published = await makePost(ctx.db);
    await saveSecuritySettings(ctx.db, admin.actor, { requireTwoFactor: "on" });
    try {
      const form = new FormData();
      form.append("file", new Blob(["%PDF-1.4\n%%EOF\n"], { type: "application/pdf" }), "resume.pdf");
      const upload = await request("/api/uploads/resume", admin.cookie, { method: "POST", body: form });
      expect(upload.status).toBe(403);
      expect(await upload.json()).toEqual({ error: TWO_FACTOR_REQUIRED });
      for (const cookie of [admin.cookie, moderator.cookie]) {
        const page = await request(`/7fs/Fun/${draft.slug}`, cookie, { redirect: "manual" });
        expect(page.status).toBe(302);
        expect(page.headers.get("location")).toBe("/admin/account");
        expect(await page.text()).not.toContain(draft.title);
        expect((await request(`/7fs/Fun/${published.slug}`, cookie)).status).toBe(200);
      }
    } finally {
      await saveSecuritySettings(ctx.db, admin.actor, { requireTwoFactor: "" });
    }
    expect((await request(`/7fs/Fun/${draft.slug}`, moderator.cookie)).status).toBe(200);
  });
});
