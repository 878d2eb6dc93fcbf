import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { session } from "~/server/db/schema.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { signedInAs } from "../../../tests/helpers/factories";
import { getSessionUser } from "./session.server";

describeEachDatabase("session lookup per request", (ctx) => {
  it("looks a page request's user up once for all its loaders; a write request, and every new request, read it again", async () => {
    const editor = await signedInAs(ctx.db, "admin");
    const page = new Request("http://localhost/admin", { headers: { cookie: editor.cookie } });
    const first = getSessionUser(page, ctx.db);
    expect(getSessionUser(page, ctx.db)).toBe(first);
    expect((await first)?.id).toBe(editor.id);

    // Signed out elsewhere: the same page request keeps its answer, the next one sees the change.
    await ctx.db.delete(session).where(eq(session.userId, editor.id));
    expect((await getSessionUser(page, ctx.db))?.id).toBe(editor.id);
    expect(await getSessionUser(new Request("http://localhost/admin", { headers: { cookie: editor.cookie } }), ctx.db)).toBeNull();
    const write = new Request("http://localhost/admin", { method: "POST", headers: { cookie: editor.cookie } });
    expect(getSessionUser(write, ctx.db)).not.toBe(getSessionUser(write, ctx.db));
  });
});
