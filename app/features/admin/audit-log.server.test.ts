import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { signIn } from "~/features/auth/auth.server";
import { createPost, deletePost, updatePost } from "~/features/posts/write/posts.server";
import { createProject, deleteProject, moveProject, updateProject } from "~/features/projects/project-admin.server";
import { addUser, changeUserRole, setPassword } from "~/features/users/users.server";
import { listAudit, pruneAudit, recordAudit } from "~/server/audit.server";
import type { Db } from "~/server/db/client.server";
import { auditLog } from "~/server/db/schema.server";
import { hitRateLimit } from "~/server/rate-limit.server";
import { getAppSecret } from "~/server/secret.server";
import { easyAltchaToken } from "../../../tests/helpers/altcha";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { makeUser, unique } from "../../../tests/helpers/factories";

async function entriesFor(db: Db, targetId: string) {
  return db.select().from(auditLog).where(eq(auditLog.targetId, targetId)).orderBy(auditLog.id);
}

// Signed with the app's secret like the real challenge, only easier: the server's check is the real one.
const human = async (db: Db) => easyAltchaToken(await getAppSecret(db));
const loginRequest = (ip: string) => new Request("http://localhost/auth", { method: "POST", headers: { "x-app-client-ip": ip } });

describeEachDatabase("audit log", (ctx) => {
  it("records post, project and user writes with the actor's email and IP, in the write's transaction", async () => {
    const admin = await makeUser(ctx.db, { role: "admin" });
    // What routes pass: the SessionUser, which carries email and IP.
    const actor = { ...admin.actor, email: admin.email, ip: "198.51.100.7" };
    const post = await createPost(ctx.db, actor, { title: `Audited ${unique()}`, content: "Body", category: "Fun", published: true });
    await updatePost(ctx.db, actor, post.slug, { title: "Audited again", content: "Body", category: "Fun", published: false });
    await deletePost(ctx.db, actor, post.slug);
    const postRows = await entriesFor(ctx.db, post.id);
    expect(postRows.map((r) => r.action)).toEqual(["post.create", "post.update", "post.delete"]);
    expect(postRows.every((r) => r.actorEmail === admin.email && r.actorId === admin.id && r.ip === "198.51.100.7")).toBe(true);
    expect(postRows[1]?.summary).toBe("Audited again (draft)");

    // An actor without an email (the bare Actor shape) gets it looked up.
    const project = await createProject(ctx.db, admin.actor, { title: "Audited project", type: "web" });
    await createProject(ctx.db, admin.actor, { title: "Neighbour", type: "web" });
    await updateProject(ctx.db, admin.actor, project.id, { title: "Renamed project", type: "web" });
    // New projects go on top: the neighbour is first, so this one moves up.
    await moveProject(ctx.db, admin.actor, project.id, "up");
    await deleteProject(ctx.db, admin.actor, project.id);
    const projectRows = await entriesFor(ctx.db, project.id);
    expect(projectRows.map((r) => r.action)).toEqual(["project.create", "project.update", "project.move", "project.delete"]);
    expect(projectRows.map((r) => r.actorEmail)).toEqual(Array(4).fill(admin.email));
    expect(projectRows[3]?.summary).toBe("Renamed project");

    const email = `audited-${unique()}@test.example`;
    await addUser(ctx.db, actor, { email, password: "", role: "moderator" });
    await changeUserRole(ctx.db, actor, "grant", { email, role: "admin" });
    await changeUserRole(ctx.db, actor, "revoke", { email, role: "admin" });
    await setPassword(ctx.db, email, "operator chosen phrase 9");
    const userRows = await ctx.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.summary} like ${`%${email}%`}`)
      .orderBy(auditLog.id);
    expect(userRows.map((r) => [r.action, r.actorEmail])).toEqual([
      ["user.create", admin.email],
      ["user.role.grant", admin.email],
      ["user.role.revoke", admin.email],
      ["user.password.set", null],
    ]);
  });

  it("records nothing when the write is refused or rolled back", async () => {
    const moderator = await makeUser(ctx.db, { role: "moderator" });
    await expect(createProject(ctx.db, moderator.actor, { title: "Refused", type: "web" })).rejects.toMatchObject({ status: 403 });
    await expect(
      ctx.db.transaction(async (tx) => {
        await recordAudit(tx, { actor: moderator.actor, action: "test.rollback", summary: moderator.email });
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    const rows = await ctx.db.select().from(auditLog).where(eq(auditLog.actorId, moderator.id));
    expect(rows).toEqual([]);
  });

  it("records sign-ins, failed sign-ins (known and unknown email) and the lock", async () => {
    const staff = await makeUser(ctx.db, { role: "moderator" });
    const ip = `203.0.113.${Math.floor(Math.random() * 200) + 1}`;
    await signIn(ctx.db, { email: staff.email, password: staff.password, verificationToken: await human(ctx.db) }, loginRequest(ip));
    await expect(
      signIn(ctx.db, { email: staff.email, password: "wrong guess 1", verificationToken: await human(ctx.db) }, loginRequest(ip)),
    ).rejects.toMatchObject({ status: 401 });
    const nobody = `nobody-${unique()}@test.example`;
    await expect(
      signIn(ctx.db, { email: nobody, password: "wrong guess 1", verificationToken: await human(ctx.db) }, loginRequest(ip)),
    ).rejects.toMatchObject({ status: 401 });
    // Four more failures, counted the way signIn counts them, pass the per-(account, IP) limit of 5.
    for (let i = 0; i < 4; i++) await hitRateLimit(ctx.db, { key: `login:account-ip:${staff.email}|${ip}`, limit: 5, windowSeconds: 900 });
    await expect(
      signIn(ctx.db, { email: staff.email, password: staff.password, verificationToken: await human(ctx.db) }, loginRequest(ip)),
    ).rejects.toMatchObject({ status: 429 });
    const rows = await ctx.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.actorEmail} in (${staff.email}, ${nobody})`)
      .orderBy(auditLog.id);
    const actions = rows.map((r) => r.action);
    expect(actions[0]).toBe("auth.sign-in");
    expect(actions[1]).toBe("auth.sign-in.failed");
    expect(actions).toContain("auth.sign-in.locked");
    expect(rows.find((r) => r.actorEmail === nobody)).toMatchObject({ action: "auth.sign-in.failed", actorId: null, ip });
    expect(rows.every((r) => r.ip === ip)).toBe(true);
    expect(rows.some((r) => r.summary.includes(staff.password))).toBe(false);
  }, 240_000);

  it("lists newest first for admins only, filters by actor and action prefix, pages, and prunes old rows", async () => {
    const admin = await makeUser(ctx.db, { role: "admin" });
    const moderator = await makeUser(ctx.db, { role: "moderator" });
    await expect(listAudit(ctx.db, moderator.actor, {}, 1)).rejects.toMatchObject({ status: 403 });
    await expect(listAudit(ctx.db, null, {}, 1)).rejects.toMatchObject({ status: 401 });
    for (let i = 0; i < 55; i++)
      await recordAudit(ctx.db, { actor: { id: moderator.id, email: moderator.email }, action: "test.paging", summary: `n${i}` });
    await recordAudit(ctx.db, { actor: { id: moderator.id, email: moderator.email }, action: "test-other.thing" });

    const first = await listAudit(ctx.db, admin.actor, { actor: moderator.email.toUpperCase(), action: "test" }, 1);
    expect(first.total).toBe(55);
    expect(first.pageCount).toBe(2);
    expect(first.rows[0]?.summary).toBe("n54");
    const second = await listAudit(ctx.db, admin.actor, { actor: moderator.email, action: "test.paging" }, 2);
    expect(second.rows.map((r) => r.summary)).toEqual(["n4", "n3", "n2", "n1", "n0"]);
    await expect(listAudit(ctx.db, admin.actor, { actor: moderator.email }, 3)).rejects.toMatchObject({ status: 404 });
    await expect(listAudit(ctx.db, admin.actor, { action: "DROP TABLE" }, 1)).rejects.toMatchObject({
      status: 400,
      message: "Unknown action.",
    });
    expect(first.actions).toEqual(expect.arrayContaining(["test.paging", "test-other.thing"]));

    await ctx.db
      .update(auditLog)
      .set({ createdAt: sql`now() - interval '400 days'` })
      .where(sql`${auditLog.summary} in ('n0', 'n1')`);
    expect(await pruneAudit(ctx.db, 365)).toBeGreaterThanOrEqual(2);
    expect((await listAudit(ctx.db, admin.actor, { actor: moderator.email, action: "test.paging" }, 1)).total).toBe(53);
  });
});
