import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { createTestDatabase, describeEachDatabase } from "../../tests/helpers/databases";
import { tempDir } from "../../tests/helpers/temp-dir";
import { DEMO_POSTS, DEMO_PROJECTS } from "./demo-content.server";
import { account, blogPosts, projects, user, userRoles } from "./db/schema.server";
import { verifyPassword } from "./password.server";
import { seedIfEmpty } from "./seed.server";

describeEachDatabase("seeding", (ctx) => {
  it("seeds an admin from the environment and demo content, once", async () => {
    const env = {
      INITIAL_ADMIN_EMAIL: "Owner@Example.com",
      INITIAL_ADMIN_PASSWORD: "keeper pass phrase 9",
      SEED_DEMO_CONTENT: true,
      dataDir: tempDir("seed-"),
    };
    const first = await seedIfEmpty(ctx.db, env);
    expect(first).toMatchObject({ seeded: true, adminEmail: "owner@example.com" });
    expect(first.generatedPassword).toBeUndefined();
    expect(fs.existsSync(path.join(env.dataDir, "initial-admin.txt"))).toBe(false);

    const [admin] = await ctx.db.select({ id: user.id }).from(user);
    const [role] = await ctx.db.select({ role: userRoles.role }).from(userRoles);
    const [acct] = await ctx.db.select({ password: account.password }).from(account);
    expect(role?.role).toBe("admin");
    expect(await verifyPassword(acct!.password!, "keeper pass phrase 9")).toBe(true);

    const posts = await ctx.db
      .select({ published: blogPosts.published, category: blogPosts.category, authorId: blogPosts.authorId })
      .from(blogPosts);
    expect(posts).toHaveLength(DEMO_POSTS.length);
    expect(posts.filter((p) => !p.published)).toHaveLength(1);
    expect(new Set(posts.map((p) => p.category)).size).toBeGreaterThanOrEqual(5);
    expect(posts.every((p) => p.authorId === admin!.id)).toBe(true);
    const projectRows = await ctx.db.select({ type: projects.type }).from(projects);
    expect(projectRows).toHaveLength(DEMO_PROJECTS.length);
    expect(new Set(projectRows.map((p) => p.type))).toEqual(new Set(["web", "other"]));

    const snapshot = async () => ({
      users: await ctx.db.select({ id: user.id, email: user.email }).from(user),
      posts: await ctx.db.select({ id: blogPosts.id, updatedAt: blogPosts.updatedAt }).from(blogPosts).orderBy(blogPosts.id),
      projects: await ctx.db.select({ id: projects.id }).from(projects).orderBy(projects.id),
    });
    const before = await snapshot();
    expect(await seedIfEmpty(ctx.db, { ...env, INITIAL_ADMIN_EMAIL: "other@example.com" })).toEqual({ seeded: false });
    expect(await snapshot()).toEqual(before);
  });
});

it.each(["pglite"] as const)("generates and saves a password, owner-readable, and skips demo content when asked (%s)", async (kind) => {
  const database = await createTestDatabase(kind);
  try {
    const dataDir = tempDir("seed-");
    const result = await seedIfEmpty(database.db, {
      SEED_DEMO_CONTENT: false,
      dataDir,
      INITIAL_ADMIN_EMAIL: undefined,
      INITIAL_ADMIN_PASSWORD: undefined,
    });
    expect(result.seeded).toBe(true);
    expect(result.adminEmail).toBe("admin@example.com");
    const file = path.join(dataDir, "initial-admin.txt");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, "utf8")).toContain(`password: ${result.generatedPassword}`);
    expect(await database.db.select({ id: blogPosts.id }).from(blogPosts)).toHaveLength(0);
    expect(await database.db.select({ id: projects.id }).from(projects)).toHaveLength(0);
    expect(await database.db.select({ id: user.id }).from(user)).toHaveLength(1);
  } finally {
    await database.close();
  }
});
