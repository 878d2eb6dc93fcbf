import { expect, it } from "vitest";
import { projects } from "~/server/db/schema.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { countProjects, createProject, deleteProject, listProjectsForAdmin, moveProject, updateProject } from "./project-admin.server";

describeEachDatabase("project administration", (ctx) => {
  it("validates with clear messages and stores empty optional fields as null", async () => {
    await expect(createProject(ctx.db, { title: "  ", type: "web" })).rejects.toMatchObject({ status: 400, message: "Title is required" });
    await expect(createProject(ctx.db, { title: "X", type: "mobile" })).rejects.toMatchObject({ message: "Type must be Web or Other" });
    await expect(createProject(ctx.db, { title: "X", type: "web", url: "javascript:alert(1)" })).rejects.toMatchObject({
      message: "Project URL must be a full web address starting with http:// or https://",
      fieldErrors: { url: ["Project URL must be a full web address starting with http:// or https://"] },
    });
    await expect(createProject(ctx.db, { title: "X", type: "web", imageUrl: "data:image/png;base64,AAA" })).rejects.toMatchObject({
      message: "Image URL must start with http://, https:// or /",
    });
    const created = await createProject(ctx.db, { title: " Site ", type: "web", url: "", imageUrl: "", featured: "on" });
    expect(created).toMatchObject({ title: "Site", url: null, imageUrl: null, featured: true, description: "" });
    await expect(updateProject(ctx.db, "not-a-uuid", { title: "Y", type: "web" })).rejects.toMatchObject({ status: 400 });
    await expect(deleteProject(ctx.db, "00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({ status: 404 });
  });

  it("appends new projects, moves them one place at a time and survives ties in display_order", async () => {
    await ctx.db.delete(projects);
    const a = await createProject(ctx.db, { title: "A", type: "web" });
    const b = await createProject(ctx.db, { title: "B", type: "other" });
    const c = await createProject(ctx.db, { title: "C", type: "web" });
    const titles = async () => (await listProjectsForAdmin(ctx.db)).map((p) => p.title);
    expect(await titles()).toEqual(["A", "B", "C"]);
    await moveProject(ctx.db, c.id, "up");
    expect(await titles()).toEqual(["A", "C", "B"]);
    await moveProject(ctx.db, a.id, "up"); // already first: nothing changes
    await moveProject(ctx.db, b.id, "down"); // already last
    expect(await titles()).toEqual(["A", "C", "B"]);
    // Older data may carry equal orders; a move still changes the visible order.
    await ctx.db.update(projects).set({ displayOrder: 0 });
    const before = await titles();
    await moveProject(ctx.db, b.id, "up");
    const after = await titles();
    expect(after.indexOf("B")).toBe(before.indexOf("B") - 1);
    await expect(moveProject(ctx.db, a.id, "sideways")).rejects.toMatchObject({ message: "Direction must be up or down" });
    await deleteProject(ctx.db, a.id);
    expect(await countProjects(ctx.db)).toBe(2);
  });
});
