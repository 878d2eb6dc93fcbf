import { expect, it } from "vitest";
import { setUserGrants } from "~/features/users/users.server";
import { getSessionUser } from "~/features/auth/session.server";
import { saveSecuritySettings } from "~/features/settings/settings.server";
import { contactMessages } from "~/server/db/schema.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { makeContactMessage, signedInAs } from "../../../tests/helpers/factories";
import { readAdminShellFacts, staffMustUseTwoFactor } from "./two-factor-guard.server";

describeEachDatabase("admin shell facts", (ctx) => {
  it("reads the two-factor rule and the unread count in one lookup per page request; a write request reads again", async () => {
    await ctx.db.delete(contactMessages);
    await makeContactMessage(ctx.db);
    await makeContactMessage(ctx.db);
    await makeContactMessage(ctx.db, { handledAt: new Date() });
    const admin = await signedInAs(ctx.db, "admin");
    const page = new Request("http://localhost/admin", { headers: { cookie: admin.cookie } });
    const actor = await getSessionUser(page, ctx.db);
    const first = readAdminShellFacts(page, actor, ctx.db);
    expect(readAdminShellFacts(page, actor, ctx.db)).toBe(first);
    expect(await first).toEqual({ mustSetUpTwoFactor: false, unreadMessages: 2, pendingComments: 0, statisticsShown: true });

    // Marked handled meanwhile: the same page request keeps its answer, a write request reads again.
    await ctx.db.update(contactMessages).set({ handledAt: new Date() });
    expect(await readAdminShellFacts(page, actor, ctx.db)).toEqual({
      mustSetUpTwoFactor: false,
      unreadMessages: 2,
      pendingComments: 0,
      statisticsShown: true,
    });
    const write = new Request("http://localhost/admin", { method: "POST", headers: { cookie: admin.cookie } });
    expect(await readAdminShellFacts(write, actor, ctx.db)).toEqual({
      mustSetUpTwoFactor: false,
      unreadMessages: 0,
      pendingComments: 0,
      statisticsShown: true,
    });
  });

  it("while the site requires two-factor, staff without it must set it up; only an administrator reads the inbox", async () => {
    await ctx.db.delete(contactMessages);
    await makeContactMessage(ctx.db);
    const admin = await signedInAs(ctx.db, "admin");
    const moderator = await signedInAs(ctx.db, "moderator");
    const plain = await signedInAs(ctx.db, "user");
    const facts = async (cookie: string) => {
      const request = new Request("http://localhost/admin", { headers: { cookie } });
      return readAdminShellFacts(request, await getSessionUser(request, ctx.db), ctx.db);
    };
    await saveSecuritySettings(ctx.db, admin.actor, { requireTwoFactor: "on" });
    try {
      expect(await facts(moderator.cookie)).toEqual({
        mustSetUpTwoFactor: true,
        unreadMessages: 0,
        pendingComments: 0,
        statisticsShown: false,
      });
      expect(await staffMustUseTwoFactor(ctx.db, moderator.actor)).toBe(true);
      expect(await facts(plain.cookie)).toEqual({
        mustSetUpTwoFactor: false,
        unreadMessages: 0,
        pendingComments: 0,
        statisticsShown: false,
      });
      expect(await staffMustUseTwoFactor(ctx.db, plain.actor)).toBe(false);
    } finally {
      await saveSecuritySettings(ctx.db, admin.actor, { requireTwoFactor: "" });
    }
    expect(await facts(moderator.cookie)).toEqual({
      mustSetUpTwoFactor: false,
      unreadMessages: 0,
      pendingComments: 0,
      statisticsShown: false,
    });
    expect(await staffMustUseTwoFactor(ctx.db, moderator.actor)).toBe(false);
  });

  it("lists Statistics for a moderator only while an administrator grants it", async () => {
    const admin = await signedInAs(ctx.db, "admin");
    const moderator = await signedInAs(ctx.db, "moderator");
    const shown = async () => {
      const request = new Request("http://localhost/admin", { headers: { cookie: moderator.cookie } });
      return (await readAdminShellFacts(request, await getSessionUser(request, ctx.db), ctx.db)).statisticsShown;
    };
    expect(await shown()).toBe(false);
    await setUserGrants(ctx.db, admin.actor, { id: moderator.userId, grants: ["statistics"] });
    expect(await shown()).toBe(true);
    await setUserGrants(ctx.db, admin.actor, { id: moderator.userId, grants: [] });
    expect(await shown()).toBe(false);
  });
});
