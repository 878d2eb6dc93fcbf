import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { createSession, getSessionUser, type SessionUser } from "~/features/auth/session.server";
import type { Db } from "~/server/db/client.server";
import { account, auditLog, session } from "~/server/db/schema.server";
import { verifyPassword } from "~/server/password.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { signedInAs } from "../../../tests/helpers/factories";
import { changeOwnPassword, listOwnSessions, revokeOtherSessions, revokeOwnSession } from "./account.server";
import { describeUserAgent } from "./account-schema";

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";

async function asUser(db: Db, cookie: string): Promise<SessionUser> {
  const found = await getSessionUser(
    new Request("http://localhost/admin/account", { headers: { cookie, "x-app-client-ip": "192.0.2.10" } }),
    db,
  );
  if (!found) throw new Error("not signed in");
  return found;
}

async function secondSession(db: Db, userId: string) {
  const setCookie = await createSession(
    db,
    userId,
    new Request("http://localhost/", { headers: { "user-agent": FIREFOX, "x-app-client-ip": "198.51.100.20" } }),
  );
  return setCookie.split(";")[0] ?? "";
}

describeEachDatabase("own account", (ctx) => {
  it("lists the user's sessions (current first, browser, IP) and signs out one or every other", async () => {
    const me = await signedInAs(ctx.db, "moderator");
    const other = await signedInAs(ctx.db, "admin");
    const second = await secondSession(ctx.db, me.id);
    await secondSession(ctx.db, me.id);
    const actor = await asUser(ctx.db, me.cookie);
    const sessions = await listOwnSessions(ctx.db, actor);
    expect(sessions).toHaveLength(3);
    expect(sessions[0]?.current).toBe(true);
    expect(sessions[1]).toMatchObject({ browser: "Firefox on Linux", ip: "198.51.100.20", current: false });

    // Someone else's session is not the actor's to end.
    const [theirs] = await ctx.db.select({ id: session.id }).from(session).where(eq(session.userId, other.id));
    await expect(revokeOwnSession(ctx.db, actor, { sessionId: theirs?.id })).rejects.toMatchObject({ status: 404 });
    expect(await getSessionUser(new Request("http://localhost/", { headers: { cookie: other.cookie } }), ctx.db)).not.toBeNull();

    const secondId = (await asUser(ctx.db, second)).sessionId;
    await expect(revokeOwnSession(ctx.db, actor, { sessionId: secondId })).resolves.toEqual({ current: false });
    expect(await getSessionUser(new Request("http://localhost/", { headers: { cookie: second } }), ctx.db)).toBeNull();
    expect(await revokeOtherSessions(ctx.db, actor)).toBe(1);
    expect((await listOwnSessions(ctx.db, actor)).map((s) => s.current)).toEqual([true]);

    const audit = await ctx.db.select().from(auditLog).where(eq(auditLog.actorId, me.id)).orderBy(auditLog.id);
    expect(audit.map((r) => r.action)).toEqual(["account.session.revoke", "account.session.revoke-others"]);
    expect(audit[0]).toMatchObject({ actorEmail: me.email, ip: "192.0.2.10", summary: "Firefox on Linux (198.51.100.20)" });
  });

  it("changes the password only with the current one, keeps this session and ends the others", async () => {
    const me = await signedInAs(ctx.db, "admin");
    const second = await secondSession(ctx.db, me.id);
    const actor = await asUser(ctx.db, me.cookie);
    await expect(
      changeOwnPassword(ctx.db, actor, {
        currentPassword: "not my password",
        newPassword: "brand new phrase 42",
        confirmPassword: "brand new phrase 42",
      }),
    ).rejects.toMatchObject({ status: 400, fieldErrors: { currentPassword: ["Your current password is not correct."] } });
    await expect(
      changeOwnPassword(ctx.db, actor, {
        currentPassword: me.password,
        newPassword: "brand new phrase 42",
        confirmPassword: "other phrase 42",
      }),
    ).rejects.toMatchObject({ status: 400, message: "Passwords don't match" });
    await expect(
      changeOwnPassword(ctx.db, actor, { currentPassword: me.password, newPassword: "short", confirmPassword: "short" }),
    ).rejects.toMatchObject({ status: 400 });
    expect(await getSessionUser(new Request("http://localhost/", { headers: { cookie: second } }), ctx.db)).not.toBeNull();

    await changeOwnPassword(ctx.db, actor, {
      currentPassword: me.password,
      newPassword: "brand new phrase 42",
      confirmPassword: "brand new phrase 42",
    });
    const [row] = await ctx.db.select({ hash: account.password }).from(account).where(eq(account.userId, me.id));
    expect(await verifyPassword(row?.hash ?? "", "brand new phrase 42")).toBe(true);
    expect(await getSessionUser(new Request("http://localhost/", { headers: { cookie: me.cookie } }), ctx.db)).not.toBeNull();
    expect(await getSessionUser(new Request("http://localhost/", { headers: { cookie: second } }), ctx.db)).toBeNull();
    const mine = await ctx.db.select().from(auditLog).where(eq(auditLog.actorId, me.id));
    expect(mine.map((r) => r.action)).toContain("account.password.change");
    expect(mine.some((r) => r.summary.includes("brand new phrase"))).toBe(false);
  });

  it("refuses plain users and anonymous callers", async () => {
    const plain = await signedInAs(ctx.db, "user");
    const actor = await asUser(ctx.db, plain.cookie);
    await expect(listOwnSessions(ctx.db, actor)).rejects.toMatchObject({ status: 403 });
    await expect(revokeOtherSessions(ctx.db, null)).rejects.toMatchObject({ status: 401 });
  });
});

it("names browsers from their user agent", () => {
  expect(describeUserAgent(FIREFOX)).toBe("Firefox on Linux");
  expect(
    describeUserAgent(
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1",
    ),
  ).toBe("Safari on iOS");
  expect(describeUserAgent("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36 Edg/130.0")).toBe(
    "Edge on Windows",
  );
  expect(describeUserAgent(null)).toBe("Unknown browser");
});
