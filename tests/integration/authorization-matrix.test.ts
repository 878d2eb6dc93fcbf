import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSession } from "~/features/auth/session.server";
import { createProject } from "~/features/projects/project-admin.server";
import { createUser, getStoredRoles, findUserByEmail } from "~/features/users/users.server";
import type { Db } from "~/server/db/client.server";
import { projects, session, user, userRoles } from "~/server/db/schema.server";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs, startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Every write endpoint, driven through real HTTP as each role. A row lists who may call it; everyone
 * else must get 401 (anonymous) or 403 (signed in) and leave the database exactly as it was.
 * Other features append their endpoints to WRITE_ENDPOINTS.
 */
type Actor = "anonymous" | "user" | "moderator" | "admin";
const ACTORS: readonly Actor[] = ["anonymous", "user", "moderator", "admin"];

interface Attempt {
  path: string;
  body: Record<string, string>;
  /** Checks the effect of an allowed call. */
  verify: (db: Db, response: Response) => Promise<void>;
}

interface WriteEndpoint {
  name: string;
  allowed: readonly Actor[];
  /** Status of an allowed call (a redirect after a form post, or 200 with the page). */
  okStatus: number;
  /** Creates what the call needs (fresh for every attempt) and describes the request. */
  prepare: (db: Db) => Promise<Attempt>;
}

let unique = 0;
const uid = () => `${Date.now()}-${++unique}`;

async function newProject(db: Db, title = `Matrix project ${uid()}`) {
  return createProject(db, { title, type: "web", description: "fixture" });
}

async function newUser(db: Db, roles: ("admin" | "moderator")[] = []) {
  return createUser(db, { email: `target-${uid()}@test.example`, password: "matrix target phrase 9", roles });
}

const WRITE_ENDPOINTS: WriteEndpoint[] = [
  {
    name: "project create",
    allowed: ["admin"],
    okStatus: 302,
    prepare: async () => {
      const title = `Created ${uid()}`;
      return {
        path: "/admin/projects",
        body: { intent: "create", title, type: "other", url: "https://example.com/x", featured: "on" },
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
      const project = await newProject(db);
      return {
        path: "/admin/projects",
        body: { intent: "update", id: project.id, title: `${project.title} (edited)`, type: "web" },
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
      const project = await newProject(db);
      return {
        path: "/admin/projects",
        body: { intent: "delete", id: project.id },
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
      await newProject(db);
      const project = await newProject(db);
      return {
        path: "/admin/projects",
        body: { intent: "move", id: project.id, direction: "up" },
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
      const email = `created-${uid()}@test.example`;
      return {
        path: "/admin/users",
        body: { intent: "create", email, password: "", role: "moderator" },
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
      const target = await newUser(db);
      return {
        path: "/admin/users",
        body: { intent: "grant", email: target.email, role: "admin" },
        verify: async (db) => expect(await getStoredRoles(db, target.id)).toEqual(["admin"]),
      };
    },
  },
  {
    name: "revoke moderator",
    allowed: ["admin"],
    okStatus: 200,
    prepare: async (db) => {
      const target = await newUser(db, ["moderator"]);
      return {
        path: "/admin/users",
        body: { intent: "revoke", email: target.email, role: "moderator" },
        verify: async (db) => expect(await getStoredRoles(db, target.id)).toEqual([]),
      };
    },
  },
  {
    name: "logout",
    allowed: ACTORS,
    okStatus: 302,
    prepare: async () => ({
      path: "/logout",
      body: {},
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
    projects: await db.select().from(projects).orderBy(asc(projects.id)),
    users: await db.select({ id: user.id, email: user.email }).from(user).orderBy(asc(user.id)),
    roles: await db.select({ userId: userRoles.userId, role: userRoles.role }).from(userRoles).orderBy(asc(userRoles.userId), asc(userRoles.role)),
    sessions: await db.select({ id: session.id }).from(session).orderBy(asc(session.id)),
  };
}

describeEachDatabase("authorization matrix", (ctx) => {
  let server: TestServer;
  const userIds = new Map<Exclude<Actor, "anonymous">, string>();

  beforeAll(async () => {
    server = await startTestServer();
    for (const role of ["user", "moderator", "admin"] as const) userIds.set(role, (await signedInAs(ctx.db, role)).userId);
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
        const attempt = await endpoint.prepare(ctx.db);
        const cookie = await cookieFor(actor);
        const before = await snapshot(ctx.db);
        const response = await server.fetch(attempt.path, {
          method: "POST",
          headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
          body: new URLSearchParams(attempt.body),
        });
        if (allowed) {
          expect(response.status).toBe(endpoint.okStatus);
          await attempt.verify(ctx.db, response);
        } else {
          expect(response.status).toBe(actor === "anonymous" ? 401 : 403);
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

  it("the last administrator cannot be demoted, and the page says why", async () => {
    // Runs last: leaves exactly one administrator.
    await ctx.db.delete(userRoles).where(eq(userRoles.role, "admin"));
    const onlyAdmin = await newUser(ctx.db, ["admin"]);
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
