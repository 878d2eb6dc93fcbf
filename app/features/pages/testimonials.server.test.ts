import { asc } from "drizzle-orm";
import { expect, it } from "vitest";
import { auditLog } from "~/server/db/schema.server";
import type { Actor } from "~/lib/permissions";
import { readContentVersion } from "~/server/content-version.server";
import { ForbiddenError, UnauthorizedError } from "~/server/errors.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import {
  createTestimonial,
  deleteTestimonial,
  listTestimonialsForAdmin,
  listVisibleTestimonials,
  moveTestimonial,
  seedDemoTestimonials,
  setTestimonialHidden,
  updateTestimonial,
} from "./testimonials.server";

const ADMIN: Actor = { id: "admin-id", role: "admin" };
const MODERATOR: Actor = { id: "mod-id", role: "moderator" };
const USER: Actor = { id: "user-id", role: "user" };

describeEachDatabase("testimonials", (ctx) => {
  it("seeds the nine demo testimonials once, and nothing without SEED_DEMO_CONTENT", async () => {
    expect(await seedDemoTestimonials(ctx.db, false)).toBe(false);
    expect(await listTestimonialsForAdmin(ctx.db)).toHaveLength(0);
    expect(await seedDemoTestimonials(ctx.db, true)).toBe(true);
    expect(await seedDemoTestimonials(ctx.db, true)).toBe(false);
    const seeded = await listTestimonialsForAdmin(ctx.db);
    expect(seeded).toHaveLength(9);
    expect(seeded[0]?.name).toBe("Sarah Mitchell");
  });

  it("lets an administrator edit, hide, reorder and delete; refuses moderators, users and visitors", async () => {
    await expect(createTestimonial(ctx.db, MODERATOR, { name: "X", position: "Y", text: "Z" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createTestimonial(ctx.db, USER, { name: "X", position: "Y", text: "Z" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createTestimonial(ctx.db, null, { name: "X", position: "Y", text: "Z" })).rejects.toBeInstanceOf(UnauthorizedError);
    const v0 = await readContentVersion(ctx.db);
    const created = await createTestimonial(ctx.db, ADMIN, { name: " Jo Doe ", position: "CTO", company: "", text: "Great work." });
    expect(created).toMatchObject({ name: "Jo Doe", company: null, hidden: false });
    let ids = (await listTestimonialsForAdmin(ctx.db)).map((t) => t.id);
    // A new testimonial goes to the top of the list.
    expect(ids[0]).toBe(created.id);
    await moveTestimonial(ctx.db, ADMIN, created.id, "down");
    ids = (await listTestimonialsForAdmin(ctx.db)).map((t) => t.id);
    expect(ids[1]).toBe(created.id);
    await setTestimonialHidden(ctx.db, ADMIN, created.id, "true");
    expect((await listVisibleTestimonials(ctx.db)).map((t) => t.id)).not.toContain(created.id);
    await updateTestimonial(ctx.db, ADMIN, created.id, { name: "Jo Doe", position: "CEO", text: "Even better." });
    await expect(setTestimonialHidden(ctx.db, USER, created.id, "false")).rejects.toBeInstanceOf(ForbiddenError);
    await deleteTestimonial(ctx.db, ADMIN, created.id);
    expect(await readContentVersion(ctx.db)).toBe(v0 + 5);
    const audit = await ctx.db
      .select({ action: auditLog.action, targetId: auditLog.targetId, actorId: auditLog.actorId })
      .from(auditLog)
      .orderBy(asc(auditLog.id));
    expect(audit).toEqual(
      ["testimonial.create", "testimonial.move", "testimonial.hide", "testimonial.update", "testimonial.delete"].map((action) => ({
        action,
        targetId: created.id,
        actorId: ADMIN.id,
      })),
    );
    await expect(deleteTestimonial(ctx.db, ADMIN, created.id)).rejects.toMatchObject({ status: 404 });
  });

  it("validates with clear messages", async () => {
    await expect(createTestimonial(ctx.db, ADMIN, { name: "", position: "CTO", text: "x" })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { name: ["Name is required"] },
    });
    await expect(createTestimonial(ctx.db, ADMIN, { name: "A", position: "CTO", text: "x".repeat(1501) })).rejects.toMatchObject({
      fieldErrors: { text: ["Quote must be at most 1500 characters"] },
    });
    await expect(moveTestimonial(ctx.db, ADMIN, "not-a-uuid", "up")).rejects.toMatchObject({ status: 400 });
  });
});
