import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { getSessionUser } from "~/features/auth/session.server";
import { sendPasswordResetFor } from "~/features/auth/password-reset.server";
import { blogPosts, mailOutbox, session, userRoles } from "~/server/db/schema.server";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "~/server/errors.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { useSmtpServer } from "../../../tests/helpers/smtp-suite";
import { makePost, makeUser, signedInAs } from "../../../tests/helpers/factories";
import { deleteUser, listUsers, revokeRole, setUserDisabled } from "./users.server";

const requestWith = (cookie: string) => new Request("http://localhost/admin", { headers: { cookie } });

describeEachDatabase("disabling, deleting and resetting users (admin)", (ctx) => {
  // Mail is set up (a local SMTP stand-in): without it no reset link can be sent.
  useSmtpServer();
  it("a disabled user is signed out everywhere and cannot use a session; Enable undoes it", async () => {
    const admin = await makeUser(ctx.db, { role: "admin" });
    const target = await signedInAs(ctx.db, "moderator");
    expect(await getSessionUser(requestWith(target.cookie), ctx.db)).not.toBeNull();

    await setUserDisabled(ctx.db, admin.actor, { id: target.id }, true);
    expect(await ctx.db.select().from(session).where(eq(session.userId, target.id))).toEqual([]);
    expect(await getSessionUser(requestWith(target.cookie), ctx.db)).toBeNull();
    expect((await listUsers(ctx.db)).find((u) => u.id === target.id)?.disabled).toBe(true);

    await setUserDisabled(ctx.db, admin.actor, { id: target.id }, false);
    expect((await listUsers(ctx.db)).find((u) => u.id === target.id)?.disabled).toBe(false);
  });

  it("only administrators decide; nobody disables or deletes themself", async () => {
    const moderator = await makeUser(ctx.db, { role: "moderator" });
    const admin = await makeUser(ctx.db, { role: "admin" });
    const target = await makeUser(ctx.db);
    await expect(setUserDisabled(ctx.db, moderator.actor, { id: target.id }, true)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(deleteUser(ctx.db, moderator.actor, { id: target.id })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(sendPasswordResetFor(ctx.db, moderator.actor, { id: target.id })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(setUserDisabled(ctx.db, admin.actor, { id: admin.id }, true)).rejects.toBeInstanceOf(ValidationError);
    await expect(deleteUser(ctx.db, admin.actor, { id: admin.id })).rejects.toBeInstanceOf(ValidationError);
    await expect(deleteUser(ctx.db, admin.actor, { id: "no-such-user" })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("the last enabled administrator cannot be disabled, deleted or demoted", async () => {
    await ctx.db.delete(userRoles).where(eq(userRoles.role, "admin"));
    const first = await makeUser(ctx.db, { role: "admin" });
    const second = await makeUser(ctx.db, { role: "admin" });
    await setUserDisabled(ctx.db, first.actor, { id: second.id }, true);
    // The only enabled admin left is `first`: a disabled admin does not count.
    await expect(setUserDisabled(ctx.db, second.actor, { id: first.id }, true)).rejects.toThrow(/last administrator cannot be disabled/);
    await expect(deleteUser(ctx.db, second.actor, { id: first.id })).rejects.toThrow(/last administrator cannot be deleted/);
    await expect(revokeRole(ctx.db, first.email, "admin")).rejects.toBeInstanceOf(ConflictError);
    // With another enabled admin, each is allowed.
    await setUserDisabled(ctx.db, first.actor, { id: second.id }, false);
    await deleteUser(ctx.db, second.actor, { id: first.id });
    expect((await listUsers(ctx.db)).some((u) => u.id === first.id)).toBe(false);
  });

  it("a deleted author's posts stay, with no author", async () => {
    const admin = await makeUser(ctx.db, { role: "admin" });
    const author = await makeUser(ctx.db, { role: "moderator" });
    const post = await makePost(ctx.db, { authorId: author.id });
    await deleteUser(ctx.db, admin.actor, { id: author.id });
    const [kept] = await ctx.db.select({ authorId: blogPosts.authorId }).from(blogPosts).where(eq(blogPosts.id, post.id));
    expect(kept).toEqual({ authorId: null });
  });

  it("a reset link is queued for an enabled user, through the login page's own mechanism; never for a disabled one", async () => {
    const admin = await makeUser(ctx.db, { role: "admin" });
    const target = await makeUser(ctx.db);
    await sendPasswordResetFor(ctx.db, admin.actor, { id: target.id });
    const queued = await ctx.db
      .select({ kind: mailOutbox.kind, payload: mailOutbox.payload })
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, "auth.password-reset"));
    expect(queued.some((j) => JSON.stringify(j.payload).includes(target.id))).toBe(true);
    await setUserDisabled(ctx.db, admin.actor, { id: target.id }, true);
    await expect(sendPasswordResetFor(ctx.db, admin.actor, { id: target.id })).rejects.toThrow(/Enable the account first/);
  });
});
