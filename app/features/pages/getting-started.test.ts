import { describe, expect, it } from "vitest";
import { gettingStartedSteps } from "./getting-started";
import type { SiteSettings } from "../settings/settings-schema";
import { DEMO_SITE_SETTINGS, NEUTRAL_SITE_NAME } from "../settings/site-defaults";

const empty: SiteSettings = {
  ...DEMO_SITE_SETTINGS,
  siteName: NEUTRAL_SITE_NAME,
  portraitUrl: "",
  bio: "",
  contactEmail: "",
};

const doneIds = (steps: ReturnType<typeof gettingStartedSteps>) => steps.filter((s) => s.done).map((s) => s.id);

describe("gettingStartedSteps", () => {
  it("a new site has everything left to do, each step linked to its screen", () => {
    const steps = gettingStartedSteps({ settings: empty, publishedPosts: 0, canManageSettings: true });
    expect(doneIds(steps)).toEqual([]);
    expect(steps.map((s) => s.to)).toEqual(["/admin/settings", "/admin/settings", "/admin/settings", "/admin/blog", "/admin/settings"]);
  });

  it("the demo identity's placeholders do not count as done", () => {
    expect(doneIds(gettingStartedSteps({ settings: DEMO_SITE_SETTINGS, publishedPosts: 0, canManageSettings: true }))).toEqual([]);
  });

  it("ticks what the owner has set, and the first published post", () => {
    const settings = { ...empty, siteName: "Jo's Notes", portraitUrl: "/uploads/me.webp", bio: "Hi.", contactEmail: "jo@jo.example" };
    expect(doneIds(gettingStartedSteps({ settings, publishedPosts: 1, canManageSettings: true }))).toEqual([
      "site-name",
      "portrait",
      "about",
      "first-post",
      "contact-email",
    ]);
  });

  it("a moderator sees the settings steps without a link to a screen they cannot open", () => {
    const steps = gettingStartedSteps({ settings: empty, publishedPosts: 0, canManageSettings: false });
    expect(steps.filter((s) => s.to !== null).map((s) => s.id)).toEqual(["first-post"]);
  });
});
