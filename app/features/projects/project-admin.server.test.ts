import { expect, it } from "vitest";
import type { Actor } from "~/lib/permissions";
import { projects } from "~/server/db/schema.server";
import { ForbiddenError, UnauthorizedError } from "~/server/errors.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { countProjects, createProject, deleteProject, listProjectsForAdmin, moveProject, updateProject } from "./project-admin.server";

const ADMIN: Actor = { id: "admin-id", role: "admin" };

describeEachDatabase("project administration", (ctx) => {
  it("refuses every write to anyone but an administrator, before looking at the input", async () => {
    const project = await createProject(ctx.db, ADMIN, { title: "Guarded", type: "web" });
    for (const actor of [
      { id: "m", role: "moderator" },
      { id: "u", role: "user" },
    ] satisfies Actor[]) {
      await expect(createProject(ctx.db, actor, { title: "X", type: "web" })).rejects.toBeInstanceOf(ForbiddenError);
      await expect(createProject(ctx.db, actor, {})).rejects.toBeInstanceOf(ForbiddenError);
      await expect(updateProject(ctx.db, actor, project.id, { title: "Y", type: "web" })).rejects.toBeInstanceOf(ForbiddenError);
      await expect(moveProject(ctx.db, actor, project.id, "up")).rejects.toBeInstanceOf(ForbiddenError);
      await expect(deleteProject(ctx.db, actor, project.id)).rejects.toBeInstanceOf(ForbiddenError);
    }
    await expect(deleteProject(ctx.db, null, project.id)).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await listProjectsForAdmin(ctx.db)).find((p) => p.id === project.id)?.title).toBe("Guarded");
    await deleteProject(ctx.db, ADMIN, project.id);
  });

  it("validates with clear messages and stores empty optional fields as null", async () => {
    await expect(createProject(ctx.db, ADMIN, { title: "  ", type: "web" })).rejects.toMatchObject({
      status: 400,
      message: "Title is required",
    });
    await expect(createProject(ctx.db, ADMIN, { title: "X", type: "mobile" })).rejects.toMatchObject({
      message: "Type must be Web or Other",
    });
    await expect(createProject(ctx.db, ADMIN, { title: "X", type: "web", url: "javascript:alert(1)" })).rejects.toMatchObject({
      message: "Project URL must be a full web address starting with http:// or https://",
      fieldErrors: { url: ["Project URL must be a full web address starting with http:// or https://"] },
    });
    await expect(createProject(ctx.db, ADMIN, { title: "X", type: "web", imageUrl: "data:image/png;base64,AAA" })).rejects.toMatchObject({
      message: "Image URL must start with http://, https:// or /",
    });
    const created = await createProject(ctx.db, ADMIN, { title: " Site ", type: "web", url: "", imageUrl: "", featured: "on" });
    expect(created).toMatchObject({ title: "Site", url: null, imageUrl: null, featured: true, description: "" });
    await expect(updateProject(ctx.db, ADMIN, "not-a-uuid", { title: "Y", type: "web" })).rejects.toMatchObject({ status: 400 });
    await expect(deleteProject(ctx.db, ADMIN, "00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({ status: 404 });
  });

  it("puts new projects first, moves them one place at a time and survives ties in display_order", async () => {
    await ctx.db.delete(projects);
    const a = await createProject(ctx.db, ADMIN, { title: "A", type: "web" });
    const b = await createProject(ctx.db, ADMIN, { title: "B", type: "other" });
    const c = await createProject(ctx.db, ADMIN, { title: "C", type: "web" });
    const titles = async () => (await listProjectsForAdmin(ctx.db)).map((p) => p.title);
    // The newest first: what the owner adds now tops the list.
    expect(await titles()).toEqual(["C", "B", "A"]);
    await moveProject(ctx.db, ADMIN, a.id, "up");
    expect(await titles()).toEqual(["C", "A", "B"]);
    await moveProject(ctx.db, ADMIN, c.id, "up"); // already first: nothing changes
    await moveProject(ctx.db, ADMIN, b.id, "down"); // already last
    expect(await titles()).toEqual(["C", "A", "B"]);
    // Older data may carry equal orders; a move still changes the visible order.
    await ctx.db.update(projects).set({ displayOrder: 0 });
    const before = await titles();
    await moveProject(ctx.db, ADMIN, b.id, "up");
    const after = await titles();
    expect(after.indexOf("B")).toBe(before.indexOf("B") - 1);
    await expect(moveProject(ctx.db, ADMIN, a.id, "sideways")).rejects.toMatchObject({ message: "Direction must be up or down" });
    await deleteProject(ctx.db, ADMIN, a.id);
    expect(await countProjects(ctx.db)).toBe(2);
  });
});
