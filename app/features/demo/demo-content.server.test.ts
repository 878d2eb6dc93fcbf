import { asc, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import type { Actor } from "~/lib/permissions";
import { readContentVersion } from "~/server/content-version.server";
import { auditLog, blogPosts, positions, projects, testimonials, user } from "~/server/db/schema.server";
import { DEMO_POSTS, DEMO_PROJECTS } from "~/server/demo-content.server";
import { ForbiddenError, UnauthorizedError } from "~/server/errors.server";
import { seedIfEmpty } from "~/server/seed.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { seedDemoPositions, updatePosition } from "../pages/positions.server";
import { seedDemoTestimonials } from "../pages/testimonials.server";
import { createProject, updateProject } from "../projects/project-admin.server";
import { readSiteSettings } from "../settings/settings.server";
import { countPublishedDemoPosts, describeDemoContent, findDemoContent, removeDemoContent } from "./demo-content.server";

describeEachDatabase("remove demo content", (ctx) => {
  it("removes exactly the unedited demo items, keeps the owner's edits and additions; admins only; audited", async () => {
    await seedIfEmpty(ctx.db, {
      INITIAL_ADMIN_EMAIL: "owner@example.com",
      INITIAL_ADMIN_PASSWORD: "keeper pass phrase 9",
      SEED_DEMO_CONTENT: true,
      dataDir: "/nonexistent-unused",
    });
    await seedDemoTestimonials(ctx.db, true);
    await seedDemoPositions(ctx.db, true);
    const [owner] = await ctx.db.select({ id: user.id }).from(user).where(eq(user.email, "owner@example.com"));
    const ADMIN: Actor = { id: owner!.id, role: "admin" };

    const found = await findDemoContent(ctx.db);
    expect(found.posts).toHaveLength(DEMO_POSTS.length);
    expect(found.projects).toHaveLength(DEMO_PROJECTS.length);
    expect(found.testimonials).toHaveLength(9);
    expect(found.positions).toHaveLength(4);
    expect(found.resume).toBe(true);
    expect(await countPublishedDemoPosts(ctx.db)).toBe(DEMO_POSTS.filter((p) => p.published).length);

    // The owner edits one of each and adds a project of their own.
    const editedPost = DEMO_POSTS[0]!;
    await ctx.db
      .update(blogPosts)
      .set({ content: `${editedPost.content}\n\nMy own words.`, version: sql`${blogPosts.version} + 1`, updatedAt: new Date() })
      .where(eq(blogPosts.slug, editedPost.slug));
    const [project] = await ctx.db.select().from(projects).where(eq(projects.title, DEMO_PROJECTS[0]!.title));
    await updateProject(ctx.db, ADMIN, project!.id, { ...DEMO_PROJECTS[0], description: "Rewritten by the owner." });
    const own = await createProject(ctx.db, ADMIN, { title: "My own project", type: "web" });
    const [role] = await ctx.db.select().from(positions).orderBy(asc(positions.displayOrder)).limit(1);
    await updatePosition(ctx.db, ADMIN, role!.id, { ...role, bullets: role!.bullets.join("\n"), location: "Lisbon" });
    // A copy saved unchanged is still an edit: its updated_at moved.
    const [quote] = await ctx.db.select().from(testimonials).limit(1);
    await ctx.db
      .update(testimonials)
      .set({ updatedAt: new Date(Date.now() + 1000) })
      .where(eq(testimonials.id, quote!.id));

    const after = await findDemoContent(ctx.db);
    expect(after.posts.map((p) => p.title)).not.toContain(editedPost.title);
    expect(after.posts).toHaveLength(DEMO_POSTS.length - 1);
    expect(after.projects).toHaveLength(DEMO_PROJECTS.length - 1);
    expect(after.testimonials).toHaveLength(8);
    expect(after.positions).toHaveLength(3);

    await expect(removeDemoContent(ctx.db, { id: "m", role: "moderator" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(removeDemoContent(ctx.db, null)).rejects.toBeInstanceOf(UnauthorizedError);
    const v0 = await readContentVersion(ctx.db);
    const removed = await removeDemoContent(ctx.db, ADMIN);
    expect(describeDemoContent(removed)).toBe("5 posts, 4 projects, 8 testimonials, 3 roles and the resume");
    expect(await readContentVersion(ctx.db)).toBe(v0 + 1);

    expect((await ctx.db.select({ slug: blogPosts.slug }).from(blogPosts)).map((p) => p.slug)).toEqual([editedPost.slug]);
    expect((await ctx.db.select({ title: projects.title }).from(projects).orderBy(asc(projects.title))).map((p) => p.title)).toEqual(
      [DEMO_PROJECTS[0]!.title, own.title].sort(),
    );
    expect((await ctx.db.select({ id: testimonials.id }).from(testimonials)).map((t) => t.id)).toEqual([quote!.id]);
    expect((await ctx.db.select({ id: positions.id }).from(positions)).map((p) => p.id)).toEqual([role!.id]);
    const settings = await readSiteSettings(ctx.db);
    expect(settings.resumeUrl).toBe("");
    // Only the resume link was written: the rest of the (default) settings is as it was.
    expect(settings.siteName).toBe("7 Fs Portfolio");
    expect(await countPublishedDemoPosts(ctx.db)).toBe(0);

    const audit = await ctx.db
      .select({ actorId: auditLog.actorId, summary: auditLog.summary })
      .from(auditLog)
      .where(eq(auditLog.action, "demo.remove"));
    expect(audit).toEqual([{ actorId: ADMIN.id, summary: "removed 5 posts, 4 projects, 8 testimonials, 3 roles and the resume" }]);

    // Nothing left: a second run removes nothing and records nothing.
    expect(describeDemoContent(await removeDemoContent(ctx.db, ADMIN))).toBe("nothing");
    expect(await readContentVersion(ctx.db)).toBe(v0 + 1);
  });
});
