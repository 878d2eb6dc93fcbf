import { expect, it } from "vitest";
import { createUser } from "~/features/users/users.server";
import { readContentVersion } from "~/server/content-version.server";
import { describeEachDatabase } from "../../../../tests/helpers/databases";
import { createPost, deletePost, updatePost } from "./posts.server";

describeEachDatabase("post writes bump the content version", (ctx) => {
  it("create, update and delete each bump it once; a double submit and a refused write do not", async () => {
    const u = await createUser(ctx.db, {
      email: `versions-${Date.now()}@posts.test`,
      password: "posts test pass phrase 9",
      roles: ["admin"],
    });
    const admin = { id: u.id, role: "admin" as const };
    const input = { title: "Versioned Post", content: "Body.", category: "Fitness", published: true };
    const version = () => readContentVersion(ctx.db);
    const v0 = await version();
    const created = await createPost(ctx.db, admin, input);
    expect(await version()).toBe(v0 + 1);
    expect((await createPost(ctx.db, admin, input)).duplicate).toBe(true);
    expect(await version()).toBe(v0 + 1);
    await updatePost(ctx.db, admin, created.slug, { ...input, content: "New body." });
    expect(await version()).toBe(v0 + 2);
    await expect(updatePost(ctx.db, admin, created.slug, { ...input, title: "" })).rejects.toMatchObject({ status: 400 });
    await deletePost(ctx.db, admin, created.slug);
    expect(await version()).toBe(v0 + 3);
  });
});
