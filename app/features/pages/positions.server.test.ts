import { asc, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import type { Actor } from "~/lib/permissions";
import { readContentVersion } from "~/server/content-version.server";
import { auditLog } from "~/server/db/schema.server";
import { ForbiddenError, UnauthorizedError } from "~/server/errors.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { createPosition, deletePosition, listPositions, movePosition, seedDemoPositions, updatePosition } from "./positions.server";

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

  it("lets a moderator add, edit, reorder and delete; refuses users and visitors", async () => {
    await expect(createPosition(ctx.db, USER, ROLE)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createPosition(ctx.db, null, ROLE)).rejects.toBeInstanceOf(UnauthorizedError);
    const first = await createPosition(ctx.db, ADMIN, { ...ROLE, title: "First" });
    const v0 = await readContentVersion(ctx.db);
    const created = await createPosition(ctx.db, MODERATOR, {
      ...ROLE,
      title: " Lead ",
      period: "2020 – 2024",
      bullets: "Shipped it\n\n  Grew it  \n",
    });
    expect(created).toMatchObject({ title: "Lead", period: "2020 – 2024", location: "", bullets: ["Shipped it", "Grew it"] });
    expect((await listPositions(ctx.db)).map((p) => p.id)).toEqual([first.id, created.id]);
    await movePosition(ctx.db, MODERATOR, created.id, "up");
    expect((await listPositions(ctx.db)).map((p) => p.id)).toEqual([created.id, first.id]);
    // Already first: nothing changes, nothing is recorded.
    await movePosition(ctx.db, MODERATOR, created.id, "up");
    const updated = await updatePosition(ctx.db, MODERATOR, created.id, { ...ROLE, title: "Lead", bullets: "" });
    expect(updated.bullets).toEqual([]);
    await expect(updatePosition(ctx.db, USER, created.id, ROLE)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(movePosition(ctx.db, USER, created.id, "down")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(deletePosition(ctx.db, USER, created.id)).rejects.toBeInstanceOf(ForbiddenError);
    await deletePosition(ctx.db, MODERATOR, created.id);
    expect(await readContentVersion(ctx.db)).toBe(v0 + 4);
    const audit = await ctx.db
      .select({ action: auditLog.action, targetId: auditLog.targetId, actorId: auditLog.actorId, summary: auditLog.summary })
      .from(auditLog)
      .where(eq(auditLog.targetId, created.id))
      .orderBy(asc(auditLog.id));
    expect(audit).toEqual([
      { action: "position.create", targetId: created.id, actorId: MODERATOR.id, summary: "Lead, Acme" },
      { action: "position.move", targetId: created.id, actorId: MODERATOR.id, summary: "moved up" },
      { action: "position.update", targetId: created.id, actorId: MODERATOR.id, summary: "Lead, Acme" },
      { action: "position.delete", targetId: created.id, actorId: MODERATOR.id, summary: "Lead, Acme" },
    ]);
    await expect(deletePosition(ctx.db, MODERATOR, created.id)).rejects.toMatchObject({ status: 404 });
    await expect(movePosition(ctx.db, MODERATOR, created.id, "up")).rejects.toMatchObject({ status: 404 });
  });

  it("validates with clear messages", async () => {
    await expect(createPosition(ctx.db, MODERATOR, { ...ROLE, title: " " })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { title: ["Title is required"] },
    });
    await expect(createPosition(ctx.db, MODERATOR, { ...ROLE, company: "x".repeat(121) })).rejects.toMatchObject({
      fieldErrors: { company: ["Company must be at most 120 characters"] },
    });
    await expect(
      createPosition(ctx.db, MODERATOR, { ...ROLE, bullets: Array.from({ length: 13 }, (_, i) => `b${i}`).join("\n") }),
    ).rejects.toMatchObject({
      fieldErrors: { bullets: ["Highlights: at most 12 lines"] },
    });
    await expect(createPosition(ctx.db, MODERATOR, { ...ROLE, bullets: `ok\n${"x".repeat(301)}` })).rejects.toMatchObject({
      fieldErrors: { bullets: ["Highlights, line 2: at most 300 characters"] },
    });
    await expect(movePosition(ctx.db, MODERATOR, "not-a-uuid", "up")).rejects.toMatchObject({ status: 400 });
    await expect(updatePosition(ctx.db, MODERATOR, "9b2f8d1e-0000-4000-8000-000000000000", ROLE)).rejects.toMatchObject({ status: 404 });
  });
});
