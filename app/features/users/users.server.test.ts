import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { account, session, user } from "~/server/db/schema.server";
import { ForbiddenError, UnauthorizedError, ValidationError } from "~/server/errors.server";
import { verifyPassword } from "~/server/password.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { canEnterArea } from "~/lib/permissions";
import {
  addUser,
  changeUserRole,
  createUser,
  getStoredRoles,
  grantRole,
  listUsers,
  revokeRole,
  setPassword,
  setUserGrants,
} from "./users.server";

describeEachDatabase("users", (ctx) => {
  it("creates a user with a credential account and a hashed password", async () => {
    const created = await createUser(ctx.db, { email: "  Ann@Example.COM ", password: "a good passphrase" });
    expect(created.email).toBe("ann@example.com");
    const [row] = await ctx.db
      .select({ password: account.password, providerId: account.providerId })
      .from(account)
      .where(eq(account.userId, created.id));
    expect(row?.providerId).toBe("credential");
    expect(row?.password).not.toContain("a good passphrase");
    expect(await verifyPassword(row?.password ?? "", "a good passphrase")).toBe(true);
  });

  it("rejects a bad email, a duplicate and a weak password", async () => {
    await expect(createUser(ctx.db, { email: "not-an-email", password: "a good passphrase" })).rejects.toThrow(/Invalid email/);
    await expect(createUser(ctx.db, { email: "ann@example.com", password: "another passphrase" })).rejects.toThrow(/already exists/);
    await expect(createUser(ctx.db, { email: "bo@example.com", password: "short" })).rejects.toThrow(/at least 10/);
    const emails = (await ctx.db.select({ email: user.email }).from(user)).map((r) => r.email);
    expect(emails).not.toContain("bo@example.com");
  });

  it("grants and revokes roles, and never demotes the last admin", async () => {
    await createUser(ctx.db, { email: "root@example.com", password: "admin pass phrase 9", roles: ["admin"] });
    await grantRole(ctx.db, "ann@example.com", "moderator");
    let users = await listUsers(ctx.db);
    expect(users.find((u) => u.email === "ann@example.com")?.role).toBe("moderator");
    await expect(revokeRole(ctx.db, "root@example.com", "admin")).rejects.toThrow(/last administrator/);
    await grantRole(ctx.db, "ann@example.com", "admin");
    await revokeRole(ctx.db, "root@example.com", "admin");
    users = await listUsers(ctx.db);
    expect(users.find((u) => u.email === "root@example.com")?.role).toBe("user");
    expect(users.find((u) => u.email === "ann@example.com")?.role).toBe("admin");
    await expect(grantRole(ctx.db, "ghost@example.com", "admin")).rejects.toThrow(/No user/);
  });

  it("sets a password and ends the user's sessions", async () => {
    const [ann] = await ctx.db.select({ id: user.id }).from(user).where(eq(user.email, "ann@example.com"));
    await ctx.db.insert(session).values({ id: "s1", token: "t1", userId: ann!.id, expiresAt: new Date(Date.now() + 60_000) });
    await setPassword(ctx.db, "ann@example.com", "brand new passphrase");
    const [row] = await ctx.db.select({ password: account.password }).from(account).where(eq(account.userId, ann!.id));
    expect(await verifyPassword(row!.password!, "brand new passphrase")).toBe(true);
    expect(await ctx.db.select({ id: session.id }).from(session).where(eq(session.userId, ann!.id))).toHaveLength(0);
    await expect(setPassword(ctx.db, "ann@example.com", "weak")).rejects.toThrow(/at least 10/);
  });

  it("the Users screen's writes are for administrators: others get 403 (401 without a session) and change nothing", async () => {
    const target = await createUser(ctx.db, { email: "screen-target@example.com", password: "a good passphrase" });
    const before = await listUsers(ctx.db);
    for (const actor of [
      { id: target.id, role: "moderator" as const },
      { id: target.id, role: "user" as const },
    ]) {
      await expect(addUser(ctx.db, actor, { email: "new@example.com", role: "admin" })).rejects.toBeInstanceOf(ForbiddenError);
      await expect(changeUserRole(ctx.db, actor, "grant", { email: target.email, role: "admin" })).rejects.toBeInstanceOf(ForbiddenError);
      await expect(changeUserRole(ctx.db, actor, "revoke", { email: "ann@example.com", role: "admin" })).rejects.toBeInstanceOf(
        ForbiddenError,
      );
    }
    await expect(addUser(ctx.db, null, { email: "new@example.com", role: "admin" })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(await listUsers(ctx.db)).toEqual(before);
  });

  it("an administrator adds users (a generated password is handed back once) and changes roles", async () => {
    const admin = { id: "admin-id", role: "admin" as const };
    await expect(addUser(ctx.db, admin, { email: "", role: "user" })).rejects.toBeInstanceOf(ValidationError);
    const added = await addUser(ctx.db, admin, { email: "Added@Example.com", password: "", role: "moderator" });
    expect(added.email).toBe("added@example.com");
    expect(added.generatedPassword).toMatch(/^[\w-]{20,}$/);
    const found = (await listUsers(ctx.db)).find((u) => u.email === "added@example.com");
    expect(found?.role).toBe("moderator");
    await changeUserRole(ctx.db, admin, "revoke", { email: "added@example.com", role: "moderator" });
    expect(await getStoredRoles(ctx.db, found?.id ?? "")).toEqual([]);
  });

  it("an administrator gives a moderator more areas; only those open, and they go with the role", async () => {
    const admin = { id: "admin-id", role: "admin" as const };
    const mod = await createUser(ctx.db, { email: "granted@example.com", password: "a good passphrase", roles: ["moderator"] });
    const plain = await createUser(ctx.db, { email: "plain-grants@example.com", password: "a good passphrase" });
    const grantsOf = async (id: string) => (await listUsers(ctx.db)).find((u) => u.id === id)?.grants;
    // Others may not grant; a bad area or a non-moderator is a clear 400 and nothing changes.
    await expect(setUserGrants(ctx.db, { id: mod.id, role: "moderator" }, { id: mod.id, grants: ["messages"] })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(setUserGrants(ctx.db, admin, { id: mod.id, grants: ["settings"] })).rejects.toThrow(/Choose among Messages/);
    await expect(setUserGrants(ctx.db, admin, { id: plain.id, grants: ["messages"] })).rejects.toThrow(/Only a moderator/);
    expect(await grantsOf(mod.id)).toEqual([]);

    const saved = await setUserGrants(ctx.db, admin, { id: mod.id, grants: ["statistics", "messages", "messages"] });
    expect(saved.grants).toEqual(["messages", "statistics"]);
    const actor = { id: mod.id, role: "moderator" as const, grants: saved.grants };
    expect(canEnterArea(actor, "messages")).toBe(true);
    expect(canEnterArea(actor, "statistics")).toBe(true);
    expect(canEnterArea(actor, "page-content")).toBe(false);
    expect(canEnterArea(actor, "settings")).toBe(false);
    // A grant never reaches past the role: a user holding one stored by hand still enters nothing.
    expect(canEnterArea({ id: plain.id, role: "user", grants: ["messages"] }, "messages")).toBe(false);

    await revokeRole(ctx.db, "granted@example.com", "moderator");
    expect(await grantsOf(mod.id)).toEqual([]);
  });
});
