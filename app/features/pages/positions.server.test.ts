import { asc, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import type { Actor } from "~/lib/permissions";
import { readContentVersion } from "~/server/content-version.server";
import { auditLog, positions } from "~/server/db/schema.server";
import { ForbiddenError, UnauthorizedError } from "~/server/errors.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import {
  createPosition,
  deletePosition,
  listPositions,
  movePosition,
  seedDemoPositions,
  sortPositionsByDate,
  updatePosition,
} from "./positions.server";

const MODERATOR: Actor = { id: "mod-id", role: "moderator" };
const ADMIN: Actor = { id: "admin-id", role: "admin" };
const USER: Actor = { id: "user-id", role: "user" };
const ROLE = { title: "Engineer", company: "Acme", description: "Built things." };

describeEachDatabase("recent roles (positions)", (ctx) => {
  it("seeds the four demo roles once, and nothing without SEED_DEMO_CONTENT", async () => {
    expect(await seedDemoPositions(ctx.db, false)).toBe(false);
    expect(await listPositions(ctx.db)).toHaveLength(0);
    expect(await seedDemoPositions(ctx.db, true)).toBe(true);
    expect(await seedDemoPositions(ctx.db, true)).toBe(false);
    const seeded = await listPositions(ctx.db);
    expect(seeded.map((p) => p.title)).toEqual(["Technical Product Manager", "System Project Consultant", "Owner", "Owner"]);
    expect(seeded[0]).toMatchObject({ period: "02/2022 – 07/2025", location: "Remote, USA" });
    expect(seeded[0]?.bullets).toHaveLength(3);
    expect(seeded[3]).toMatchObject({ period: "", location: "", bullets: [] });
    // Deleting them all does not bring them back on the next start.
    for (const p of seeded) await deletePosition(ctx.db, ADMIN, p.id);
    expect(await seedDemoPositions(ctx.db, true)).toBe(false);
    expect(await listPositions(ctx.db)).toHaveLength(0);
  });

  it("lets an administrator add, edit, reorder and delete; refuses moderators, users and visitors", async () => {
    await expect(createPosition(ctx.db, MODERATOR, ROLE)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createPosition(ctx.db, USER, ROLE)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createPosition(ctx.db, null, ROLE)).rejects.toBeInstanceOf(UnauthorizedError);
    const first = await createPosition(ctx.db, ADMIN, { ...ROLE, title: "First" });
    const v0 = await readContentVersion(ctx.db);
    const created = await createPosition(ctx.db, ADMIN, {
      ...ROLE,
      title: " Lead ",
      period: "2020 – 2024",
      bullets: "Shipped it\n\n  Grew it  \n",
    });
    expect(created).toMatchObject({ title: "Lead", period: "2020 – 2024", location: "", bullets: ["Shipped it", "Grew it"] });
    // A new role goes to the top of the "most recent first" timeline.
    expect((await listPositions(ctx.db)).map((p) => p.id)).toEqual([created.id, first.id]);
    await movePosition(ctx.db, ADMIN, created.id, "down");
    expect((await listPositions(ctx.db)).map((p) => p.id)).toEqual([first.id, created.id]);
    // Already last: nothing changes, nothing is recorded.
    await movePosition(ctx.db, ADMIN, created.id, "down");
    const updated = await updatePosition(ctx.db, ADMIN, created.id, { ...ROLE, title: "Lead", bullets: "" });
    expect(updated.bullets).toEqual([]);
    await expect(updatePosition(ctx.db, USER, created.id, ROLE)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(movePosition(ctx.db, USER, created.id, "down")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(deletePosition(ctx.db, USER, created.id)).rejects.toBeInstanceOf(ForbiddenError);
    await deletePosition(ctx.db, ADMIN, created.id);
    expect(await readContentVersion(ctx.db)).toBe(v0 + 4);
    const audit = await ctx.db
      .select({ action: auditLog.action, targetId: auditLog.targetId, actorId: auditLog.actorId, summary: auditLog.summary })
      .from(auditLog)
      .where(eq(auditLog.targetId, created.id))
      .orderBy(asc(auditLog.id));
    expect(audit).toEqual([
      { action: "position.create", targetId: created.id, actorId: ADMIN.id, summary: "Lead, Acme" },
      { action: "position.move", targetId: created.id, actorId: ADMIN.id, summary: "moved down" },
      { action: "position.update", targetId: created.id, actorId: ADMIN.id, summary: "Lead, Acme" },
      { action: "position.delete", targetId: created.id, actorId: ADMIN.id, summary: "Lead, Acme" },
    ]);
    await expect(deletePosition(ctx.db, ADMIN, created.id)).rejects.toMatchObject({ status: 404 });
    await expect(movePosition(ctx.db, ADMIN, created.id, "up")).rejects.toMatchObject({ status: 404 });
  });

  it("sorts the timeline by date in one step: latest end first, unreadable periods last; audited", async () => {
    await ctx.db.delete(positions);
    const old = await createPosition(ctx.db, ADMIN, { ...ROLE, title: "Old", period: "06/2019 – 01/2022" });
    const undated = await createPosition(ctx.db, ADMIN, { ...ROLE, title: "Undated", period: "" });
    const current = await createPosition(ctx.db, ADMIN, { ...ROLE, title: "Current", period: "08/2025 – Present" });
    const recent = await createPosition(ctx.db, ADMIN, { ...ROLE, title: "Recent", period: "02/2022 – 07/2025" });
    expect((await listPositions(ctx.db)).map((p) => p.title)).toEqual(["Recent", "Current", "Undated", "Old"]);
    await expect(sortPositionsByDate(ctx.db, USER)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(sortPositionsByDate(ctx.db, null)).rejects.toBeInstanceOf(UnauthorizedError);
    const v0 = await readContentVersion(ctx.db);
    expect(await sortPositionsByDate(ctx.db, ADMIN)).toEqual({ unread: 1 });
    expect((await listPositions(ctx.db)).map((p) => p.id)).toEqual([current.id, recent.id, old.id, undated.id]);
    expect(await readContentVersion(ctx.db)).toBe(v0 + 1);
    const [audit] = await ctx.db
      .select({ actorId: auditLog.actorId, summary: auditLog.summary })
      .from(auditLog)
      .where(eq(auditLog.action, "position.sort"));
    expect(audit).toEqual({ actorId: ADMIN.id, summary: "sorted by date" });
  });

  it("validates with clear messages", async () => {
    await expect(createPosition(ctx.db, ADMIN, { ...ROLE, title: " " })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { title: ["Title is required"] },
    });
    await expect(createPosition(ctx.db, ADMIN, { ...ROLE, company: "x".repeat(121) })).rejects.toMatchObject({
      fieldErrors: { company: ["Company must be at most 120 characters"] },
    });
    await expect(
      createPosition(ctx.db, ADMIN, { ...ROLE, bullets: Array.from({ length: 13 }, (_, i) => `b${i}`).join("\n") }),
    ).rejects.toMatchObject({
      fieldErrors: { bullets: ["Highlights: at most 12 lines"] },
    });
    await expect(createPosition(ctx.db, ADMIN, { ...ROLE, bullets: `ok\n${"x".repeat(301)}` })).rejects.toMatchObject({
      fieldErrors: { bullets: ["Highlights, line 2: at most 300 characters"] },
    });
    await expect(movePosition(ctx.db, ADMIN, "not-a-uuid", "up")).rejects.toMatchObject({ status: 400 });
    await expect(updatePosition(ctx.db, ADMIN, "9b2f8d1e-0000-4000-8000-000000000000", ROLE)).rejects.toMatchObject({ status: 404 });
  });
});
