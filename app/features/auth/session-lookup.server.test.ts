import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { session, userRoles } from "~/server/db/schema.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { signedInAs } from "../../../tests/helpers/factories";
import { openRequestScope, REQUEST_SCOPE_HEADER } from "~/server/request-scope.server";
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

  it("shares the lookup with React Router's copies of the request while the page handler's scope is open", async () => {
    const editor = await signedInAs(ctx.db, "moderator");
    const scope = openRequestScope();
    const page = new Request("http://localhost/admin", { headers: { cookie: editor.cookie, [REQUEST_SCOPE_HEADER]: scope.id } });
    const copy = new Request(page.url, { headers: page.headers, signal: page.signal });
    const first = getSessionUser(page, ctx.db);
    expect(getSessionUser(copy, ctx.db)).toBe(first);
    expect(await first).toMatchObject({ id: editor.id, role: "moderator", canEdit: true });
    scope.close();
    expect(getSessionUser(copy, ctx.db)).not.toBe(first);
  });

  it("reads the roles with the session: admin over moderator, none is a user", async () => {
    const both = await signedInAs(ctx.db, "moderator");
    await ctx.db.insert(userRoles).values({ userId: both.id, role: "admin" });
    const plain = await signedInAs(ctx.db, "user");
    const lookUp = (cookie: string) => getSessionUser(new Request("http://localhost/", { headers: { cookie } }), ctx.db);
    expect(await lookUp(both.cookie)).toMatchObject({ role: "admin", canEdit: true });
    expect(await lookUp(plain.cookie)).toMatchObject({ id: plain.id, role: "user", canEdit: false });
  });
});
