import { expect, it } from "vitest";
import { readContentVersion } from "~/server/content-version.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import type { Actor } from "~/lib/permissions";
import { createProject, deleteProject, moveProject, updateProject } from "./project-admin.server";

const ADMIN: Actor = { id: "00000000-0000-4000-8000-000000000001", role: "admin" };

describeEachDatabase("project writes bump the content version", (ctx) => {
  it("create, update, move and delete each bump it once; a refused write does not", async () => {
    const version = () => readContentVersion(ctx.db);
    const v0 = await version();
    const a = await createProject(ctx.db, ADMIN, { title: "Versioned A", type: "web" });
    await createProject(ctx.db, ADMIN, { title: "Versioned B", type: "web" });
    expect(await version()).toBe(v0 + 2);
    await updateProject(ctx.db, ADMIN, a.id, { title: "Versioned A2", type: "web" });
    expect(await version()).toBe(v0 + 3);
    // New projects go on top: B is first, so A moves up.
    await moveProject(ctx.db, ADMIN, a.id, "up");
    expect(await version()).toBe(v0 + 4);
    await deleteProject(ctx.db, ADMIN, a.id);
    expect(await version()).toBe(v0 + 5);
    await expect(updateProject(ctx.db, ADMIN, a.id, { title: "Gone", type: "web" })).rejects.toMatchObject({ status: 404 });
    await expect(deleteProject(ctx.db, ADMIN, a.id)).rejects.toMatchObject({ status: 404 });
    await expect(createProject(ctx.db, ADMIN, { title: " ", type: "web" })).rejects.toMatchObject({ status: 400 });
    expect(await version()).toBe(v0 + 5);
  });
});
