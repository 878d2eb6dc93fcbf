import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSession } from "~/features/auth/session.server";
import { getStoredRoles, findUserByEmail } from "~/features/users/users.server";
import type { Db } from "~/server/db/client.server";
import { blogMedia, blogPosts, contactMessages, projects, session, uploads, user, userRoles } from "~/server/db/schema.server";
import { png } from "../fixtures/images";
import { describeEachDatabase } from "../helpers/databases";
import { deliveryOf } from "../helpers/contact";
import { makeContactMessage, makePost, makeProject, makeUser, signedInAs, unique } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * THE authorization matrix (issue 5): every write endpoint, driven through real HTTP on the production
 * build as each role. A row lists exactly who may call it; everyone else must get 401 (anonymous) or
 * 403 (signed in) with a message, and leave the database (and the upload directory) exactly as it was.
 * Reading of SPEC §6 (docs/decisions/004-permissions.md): posts create/update and uploads = canEdit
 * (admin, moderator); deleting a post = admin or its author; projects and users = admin; the contact
 * inbox = canEdit, deleting a message = admin; logout = anyone.
 */
type Actor = "anonymous" | "user" | "moderator" | "admin";
const ACTORS: readonly Actor[] = ["anonymous", "user", "moderator", "admin"];
const STAFF: readonly Actor[] = ["moderator", "admin"];

// The build reads UPLOAD_DIR when it first stores a file; set before the server starts.
const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), "authz-matrix-uploads-"));
process.env.UPLOAD_DIR = uploadDir;

interface Attempt {
  path: string;
  body: URLSearchParams | FormData;
  /** Checks the effect of an allowed call. */
  verify: (db: Db, response: Response) => Promise<void>;
}

interface WriteEndpoint {
  name: string;
  allowed: readonly Actor[];
  /** Status of an allowed call (a redirect after a form post, 200 with the page, 201 from the API). */
  okStatus: number;
  /** Creates what the call needs (fresh for every attempt) and describes the request. */
  prepare: (db: Db, ids: { actor: string | null; author: string }) => Promise<Attempt>;
}

const FAILED_DELIVERY = { delivery: { state: "failed", attempts: 3, lastError: "boom" } } as const;

const messageRow = async (db: Db, id: string) => (await db.select().from(contactMessages).where(eq(contactMessages.id, id)))[0];
const postRow = async (db: Db, id: string) =>
  (await db.select({ id: blogPosts.id, title: blogPosts.title }).from(blogPosts).where(eq(blogPosts.id, id)))[0];

const WRITE_ENDPOINTS: WriteEndpoint[] = [
  {
    name: "post create",
    allowed: STAFF,
    okStatus: 302,
    prepare: async () => {
      const title = `Created post ${unique()}`;
      return {
        path: "/7fs/Fun/new",
        body: new URLSearchParams({ title, content: "Body", published: "on" }),
        verify: async (db, response) => {
          const rows = await db.select({ title: blogPosts.title, slug: blogPosts.slug }).from(blogPosts).where(eq(blogPosts.title, title));
          expect(rows).toHaveLength(1);
          expect(response.headers.get("location")).toBe(`/7fs/Fun/${rows[0]?.slug}`);
        },
      };
    },
  },
  {
    name: "post update (someone else's post)",
    allowed: STAFF,
    okStatus: 302,
    prepare: async (db, { author }) => {
      const post = await makePost(db, { authorId: author });
      return {
        path: `/7fs/Fun/${post.slug}/edit`,
        body: new URLSearchParams({ title: "Updated title", content: "New body", published: "on" }),
        verify: async (db) => expect((await postRow(db, post.id))?.title).toBe("Updated title"),
      };
    },
  },
  {
    name: "post delete (the caller's own post)",
    // A plain user who once wrote a post (a demoted moderator) may not delete it either.
    allowed: STAFF,
    okStatus: 302,
    prepare: async (db, { actor, author }) => {
      const post = await makePost(db, { authorId: actor ?? author });
      return {
        path: `/7fs/Fun/${post.slug}`,
        body: new URLSearchParams({ intent: "delete" }),
        verify: async (db, response) => {
          expect(await postRow(db, post.id)).toBeUndefined();
          expect(response.headers.get("location")).toBe("/7fs/Fun");
        },
      };
    },
  },
  {
    name: "post delete (someone else's post)",
    allowed: ["admin"],
    okStatus: 302,
    prepare: async (db, { author }) => {
      const post = await makePost(db, { authorId: author });
      return {
        path: `/7fs/Fun/${post.slug}`,
        body: new URLSearchParams({ intent: "delete" }),
        verify: async (db) => expect(await postRow(db, post.id)).toBeUndefined(),
      };
    },
  },
  {
    name: "image upload",
    allowed: STAFF,
    okStatus: 201,
    prepare: async () => {
      const body = new FormData();
      body.append("files", new Blob([new Uint8Array(await png())], { type: "image/png" }), "matrix.png");
      return {
        path: "/api/uploads",
        body,
        verify: async (db, response) => {
          const payload: unknown = await response.json();
          expect(payload).toMatchObject({ images: [{ url: expect.any(String) }] });
          expect((await db.select({ id: uploads.id }).from(uploads)).length).toBeGreaterThan(0);
        },
      };
    },
  },
  {
    name: "project create",
    allowed: ["admin"],
    okStatus: 302,
    prepare: async () => {
      const title = `Created ${unique()}`;
      return {
        path: "/admin/projects",
        body: new URLSearchParams({ intent: "create", title, type: "other", url: "https://example.com/x", featured: "on" }),
        verify: async (db) => {
          const rows = await db.select({ title: projects.title, featured: projects.featured }).from(projects);
          expect(rows).toContainEqual({ title, featured: true });
        },
      };
    },
  },
  {
    name: "project update",
    allowed: ["admin"],
    okStatus: 302,
    prepare: async (db) => {
      const project = await makeProject(db);
      return {
        path: "/admin/projects",
        body: new URLSearchParams({ intent: "update", id: project.id, title: `${project.title} (edited)`, type: "web" }),
        verify: async (db) => {
          const rows = await db.select({ id: projects.id, title: projects.title }).from(projects);
          expect(rows).toContainEqual({ id: project.id, title: `${project.title} (edited)` });
        },
      };
    },
  },
  {
    name: "project delete",
    allowed: ["admin"],
    okStatus: 302,
    prepare: async (db) => {
      const project = await makeProject(db);
      return {
        path: "/admin/projects",
        body: new URLSearchParams({ intent: "delete", id: project.id }),
        verify: async (db) => {
          const ids = (await db.select({ id: projects.id }).from(projects)).map((r) => r.id);
          expect(ids).not.toContain(project.id);
        },
      };
    },
  },
  {
    name: "project reorder",
    allowed: ["admin"],
    okStatus: 200,
    prepare: async (db) => {
      await makeProject(db);
      const project = await makeProject(db);
      return {
        path: "/admin/projects",
        body: new URLSearchParams({ intent: "move", id: project.id, direction: "up" }),
        verify: async (db) => {
          const ordered = await db.select({ id: projects.id }).from(projects).orderBy(asc(projects.displayOrder), asc(projects.createdAt));
          const ids = ordered.map((r) => r.id);
          expect(ids.indexOf(project.id)).toBe(ids.length - 2);
        },
      };
    },
  },
  {
    name: "user create",
    allowed: ["admin"],
    okStatus: 200,
    prepare: async () => {
      const email = `created-${unique()}@test.example`;
      return {
        path: "/admin/users",
        body: new URLSearchParams({ intent: "create", email, password: "", role: "moderator" }),
        verify: async (db) => {
          const found = await findUserByEmail(db, email);
          expect(found).not.toBeNull();
          expect(await getStoredRoles(db, found?.id ?? "")).toEqual(["moderator"]);
        },
      };
    },
  },
  {
    name: "grant admin",
    allowed: ["admin"],
    okStatus: 200,
    prepare: async (db) => {
      const target = await makeUser(db);
      return {
        path: "/admin/users",
        body: new URLSearchParams({ intent: "grant", email: target.email, role: "admin" }),
        verify: async (db) => expect(await getStoredRoles(db, target.id)).toEqual(["admin"]),
      };
    },
  },
  {
    name: "revoke moderator",
    allowed: ["admin"],
    okStatus: 200,
    prepare: async (db) => {
      const target = await makeUser(db, { role: "moderator" });
      return {
        path: "/admin/users",
        body: new URLSearchParams({ intent: "revoke", email: target.email, role: "moderator" }),
        verify: async (db) => expect(await getStoredRoles(db, target.id)).toEqual([]),
      };
    },
  },
  {
    name: "inbox: mark handled",
    allowed: STAFF,
    okStatus: 200,
    prepare: async (db) => {
      const id = (await makeContactMessage(db, FAILED_DELIVERY)).id;
      return {
        path: "/admin/messages",
        body: new URLSearchParams({ intent: "handled", id }),
        verify: async (db) => expect((await messageRow(db, id))?.handledAt).toBeInstanceOf(Date),
      };
    },
  },
  {
    name: "inbox: mark not handled",
    allowed: STAFF,
    okStatus: 200,
    prepare: async (db) => {
      const id = (await makeContactMessage(db, FAILED_DELIVERY)).id;
      await db.update(contactMessages).set({ handledAt: new Date() }).where(eq(contactMessages.id, id));
      return {
        path: "/admin/messages",
        body: new URLSearchParams({ intent: "unhandled", id }),
        verify: async (db) => expect((await messageRow(db, id))?.handledAt).toBeNull(),
      };
    },
  },
  {
    name: "inbox: retry delivery",
    allowed: STAFF,
    okStatus: 200,
    prepare: async (db) => {
      const id = (await makeContactMessage(db, FAILED_DELIVERY)).id;
      return {
        path: "/admin/messages",
        body: new URLSearchParams({ intent: "retry", id }),
        verify: async (db) => expect(await deliveryOf(db, id)).toMatchObject({ state: "pending", attempts: 0, lastError: null }),
      };
    },
  },
  {
    name: "inbox: delete message",
    allowed: ["admin"],
    okStatus: 200,
    prepare: async (db) => {
      const id = (await makeContactMessage(db, FAILED_DELIVERY)).id;
      return {
        path: "/admin/messages",
        body: new URLSearchParams({ intent: "delete", id }),
        verify: async (db) => expect(await messageRow(db, id)).toBeUndefined(),
      };
    },
  },
  {
    name: "logout",
    allowed: ACTORS,
    okStatus: 302,
    prepare: async () => ({
      path: "/logout",
      body: new URLSearchParams(),
      verify: async (_db, response) => {
        expect(response.headers.get("location")).toBe("/");
        expect(response.headers.getSetCookie().some((c) => c.startsWith("sid=;"))).toBe(true);
      },
    }),
  },
];

/** Everything a write could touch. Sessions are included: a refused call must not end one either. */
async function snapshot(db: Db) {
  return {
    posts: await db.select().from(blogPosts).orderBy(asc(blogPosts.id)),
    media: await db.select().from(blogMedia).orderBy(asc(blogMedia.id)),
    uploads: await db.select().from(uploads).orderBy(asc(uploads.id)),
    uploadFiles: fs.readdirSync(uploadDir, { recursive: true }).map(String).sort(),
    messages: await db.select().from(contactMessages).orderBy(asc(contactMessages.id)),
    projects: await db.select().from(projects).orderBy(asc(projects.id)),
    users: await db.select({ id: user.id, email: user.email }).from(user).orderBy(asc(user.id)),
    roles: await db
      .select({ userId: userRoles.userId, role: userRoles.role })
      .from(userRoles)
      .orderBy(asc(userRoles.userId), asc(userRoles.role)),
    sessions: await db.select({ id: session.id }).from(session).orderBy(asc(session.id)),
  };
}

describeEachDatabase("authorization matrix", (ctx) => {
  let server: TestServer;
  const userIds = new Map<Exclude<Actor, "anonymous">, string>();
  /** A second moderator: writes the posts that are "someone else's" for every actor. */
  let author = "";

  beforeAll(async () => {
    server = await startTestServer();
    for (const role of ["user", "moderator", "admin"] as const) userIds.set(role, (await signedInAs(ctx.db, role)).userId);
    author = (await signedInAs(ctx.db, "moderator")).userId;
  });
  afterAll(() => server.close());

  /** A fresh session per call, so a logout in one row cannot affect another. */
  async function cookieFor(actor: Actor): Promise<string> {
    if (actor === "anonymous") return "";
    const setCookie = await createSession(ctx.db, userIds.get(actor) ?? "", new Request("http://localhost/"));
    return setCookie.split(";")[0] ?? "";
  }

  for (const endpoint of WRITE_ENDPOINTS) {
    for (const actor of ACTORS) {
      const allowed = endpoint.allowed.includes(actor);
      it(`${endpoint.name} as ${actor}: ${allowed ? `allowed (${endpoint.okStatus})` : "refused, nothing changes"}`, async () => {
        const attempt = await endpoint.prepare(ctx.db, { actor: actor === "anonymous" ? null : (userIds.get(actor) ?? null), author });
        const cookie = await cookieFor(actor);
        const before = await snapshot(ctx.db);
        // The body sets its own content type (form-urlencoded or multipart), as a browser would.
        const response = await server.fetch(attempt.path, {
          method: "POST",
          headers: { origin: server.url, ...(cookie ? { cookie } : {}) },
          body: attempt.body,
        });
        if (allowed) {
          expect(response.status).toBe(endpoint.okStatus);
          await attempt.verify(ctx.db, response);
        } else {
          expect(response.status).toBe(actor === "anonymous" ? 401 : 403);
          // A person can tell why: the page or the JSON body says so.
          expect(await response.text()).toMatch(
            actor === "anonymous" ? /You must be logged in/ : /permission|Only (an admin|administrators)/,
          );
          expect(await snapshot(ctx.db)).toEqual(before);
        }
      });
    }
  }

  it("pages: /admin sends anonymous to /auth and plain users home with Access Denied", async () => {
    const anonymous = await server.fetch("/admin");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toBe("/auth");
    const plain = await server.fetch("/admin", { headers: { cookie: await cookieFor("user") } });
    expect(plain.status).toBe(302);
    expect(plain.headers.get("location")).toBe("/");
    const toast = plain.headers.getSetCookie().find((c) => c.startsWith("toast="));
    expect(Buffer.from(toast?.split(";")[0]?.slice(6) ?? "", "base64url").toString()).toContain("Access Denied");
    for (const actor of ["moderator", "admin"] as const) {
      const page = await server.fetch("/admin", { headers: { cookie: await cookieFor(actor) } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Welcome back! Here&#x27;s an overview of your content.");
    }
  });

  it("pages: projects and users are for admins only; moderators get 403 and no Projects entry", async () => {
    const moderator = await cookieFor("moderator");
    const dashboard = await (await server.fetch("/admin", { headers: { cookie: moderator } })).text();
    expect(dashboard).toContain("Blog Management");
    expect(dashboard).not.toContain('href="/admin/projects"');
    for (const path of ["/admin/projects", "/admin/users"]) {
      expect((await server.fetch(path, { headers: { cookie: moderator } })).status).toBe(403);
      expect((await server.fetch(path, { headers: { cookie: await cookieFor("admin") } })).status).toBe(200);
    }
    const adminDashboard = await (await server.fetch("/admin", { headers: { cookie: await cookieFor("admin") } })).text();
    expect(adminDashboard).toContain('href="/admin/projects"');
  });

  it("pages: the post form is for staff — anonymous signs in first, a plain user gets 403", async () => {
    const post = await makePost(ctx.db, { authorId: author });
    for (const page of ["/7fs/Fun/new", `/7fs/Fun/${post.slug}/edit`]) {
      const anonymous = await server.fetch(page);
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.get("location")).toBe(`/auth?redirectTo=${encodeURIComponent(page)}`);
      expect((await server.fetch(page, { headers: { cookie: await cookieFor("user") } })).status).toBe(403);
      for (const actor of STAFF) expect((await server.fetch(page, { headers: { cookie: await cookieFor(actor) } })).status).toBe(200);
    }
  });

  it("pages: the inbox lists messages for staff, Delete only for admins; others are sent away", async () => {
    const id = (await makeContactMessage(ctx.db, FAILED_DELIVERY)).id;
    const row = await messageRow(ctx.db, id);
    const anonymous = await server.fetch("/admin/messages");
    expect(anonymous.headers.get("location")).toBe("/auth");
    const plain = await server.fetch("/admin/messages", { headers: { cookie: await cookieFor("user") } });
    expect(plain.headers.get("location")).toBe("/");
    for (const actor of STAFF) {
      const page = await server.fetch("/admin/messages", { headers: { cookie: await cookieFor(actor) } });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(row?.name ?? "missing");
      expect(html).toContain("Delivery failed");
      expect(html.includes(">Delete<")).toBe(actor === "admin");
    }
  });

  it("inbox: a malformed request is 400 and an unknown message 404, each with a message", async () => {
    const headers = { origin: server.url, cookie: await cookieFor("admin") };
    const bad = await server.fetch("/admin/messages", {
      method: "POST",
      headers,
      body: new URLSearchParams({ intent: "explode", id: "1" }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("That request was not understood");
    const missing = await server.fetch("/admin/messages", {
      method: "POST",
      headers,
      body: new URLSearchParams({ intent: "handled", id: "00000000-0000-4000-8000-000000000000" }),
    });
    expect(missing.status).toBe(404);
  });

  it("the last administrator cannot be demoted, and the page says why", async () => {
    // Runs last: leaves exactly one administrator.
    await ctx.db.delete(userRoles).where(eq(userRoles.role, "admin"));
    const onlyAdmin = await makeUser(ctx.db, { role: "admin" });
    const cookie = (await createSession(ctx.db, onlyAdmin.id, new Request("http://localhost/"))).split(";")[0] ?? "";
    const response = await server.fetch("/admin/users", {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ intent: "revoke", email: onlyAdmin.email, role: "admin" }),
    });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("The last administrator cannot be demoted");
    expect(await getStoredRoles(ctx.db, onlyAdmin.id)).toEqual(["admin"]);
  });
});
