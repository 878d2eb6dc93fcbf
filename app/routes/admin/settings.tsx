import { handleAdminForm } from "~/features/admin/admin-form.server";
import { requireArea } from "~/features/auth/guards.server";
import { analyticsSettingsFormSchema, STATISTICS_TEXT } from "~/features/analytics/analytics-settings";
import { readAnalyticsSettings, saveAnalyticsSettings } from "~/features/analytics/analytics-settings.server";
import { StatisticsSettingsForm } from "~/features/analytics/statistics-settings-form";
import { FediverseSettingsForm } from "~/features/fediverse/fediverse-settings";
import { FEDIVERSE_TEXTS, fediverseSettingsSchema } from "~/features/fediverse/fediverse-schema";
import { blockFollower, fediverseAdminView, removeFollower, saveFediverseSettings } from "~/features/fediverse/fediverse.server";
import { invalidSubmission } from "~/server/failure-reply.server";
import { SettingsForm } from "~/features/settings/settings-form";
import { SecuritySettingsForm } from "~/features/settings/security-settings-form";
import { SECURITY_SAVED, securitySettingsFormSchema, SETTINGS_SAVED, siteSettingsFormSchema } from "~/features/settings/settings-schema";
import { readSecuritySettings, readSiteSettings, saveSecuritySettings, saveSiteSettings } from "~/features/settings/settings.server";
import { getDb } from "~/server/db/client.server";
import { describeDemoContent, findDemoContent, isDemoContentEmpty, removeDemoContent } from "~/features/demo/demo-content.server";
import { RemoveDemoContent, REMOVE_DEMO_INTENT } from "~/features/demo/remove-demo-content";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/settings";

export function meta() {
  return [{ title: "Settings" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireArea(request, "settings");
  const db = getDb();
  const [settings, security, statistics, demo, fediverse] = await Promise.all([
    readSiteSettings(db),
    readSecuritySettings(db),
    readAnalyticsSettings(db),
    findDemoContent(db),
    fediverseAdminView(db, actor),
  ]);
  return { settings, security, statistics, demo, demoEmpty: isDemoContentEmpty(demo), fediverse };
}

// The site form posts no intent (the security form says intent=security); a refusal comes before any field error.
export async function action({ request }: Route.ActionArgs) {
  return handleAdminForm(request, "settings", {
    "": async ({ actor, db, parse }) => {
      const submission = parse(siteSettingsFormSchema);
      if (submission.status !== "success") return invalidSubmission(submission);
      // The payload, not the flat form: link rows arrive as socialLinks[0].label, … and are read as a list.
      await saveSiteSettings(db, actor, submission.payload);
      return redirectWithToast("/admin/settings", { title: SETTINGS_SAVED, type: "success" });
    },
    security: async ({ actor, db, form, parse }) => {
      parse(securitySettingsFormSchema);
      await saveSecuritySettings(db, actor, form);
      return redirectWithToast("/admin/settings", { title: SECURITY_SAVED, type: "success" });
    },
    [REMOVE_DEMO_INTENT]: async ({ actor, db }) => {
      const removed = await removeDemoContent(db, actor);
      const description = isDemoContentEmpty(removed)
        ? "No demo content was left to remove."
        : `Removed ${describeDemoContent(removed)}. Everything you edited or added stays.`;
      return redirectWithToast("/admin/settings", { title: "Demo content removed", description, type: "success" });
    },
    statistics: async ({ actor, db, form, parse }) => {
      const submission = parse(analyticsSettingsFormSchema);
      if (submission.status !== "success") return invalidSubmission(submission);
      await saveAnalyticsSettings(db, actor, form);
      return redirectWithToast("/admin/settings", { title: STATISTICS_TEXT.saved, type: "success" });
    },
    fediverse: async ({ actor, db, form, parse }) => {
      const submission = parse(fediverseSettingsSchema);
      if (submission.status !== "success") return invalidSubmission(submission);
      await saveFediverseSettings(db, actor, form);
      return redirectWithToast("/admin/settings", { title: FEDIVERSE_TEXTS.saved, type: "success" });
    },
    "fediverse-remove": async ({ actor, db, form }) => {
      await removeFollower(db, actor, form);
      return redirectWithToast("/admin/settings", { title: FEDIVERSE_TEXTS.removed, type: "success" });
    },
    "fediverse-block": async ({ actor, db, form }) => {
      await blockFollower(db, actor, form);
      return redirectWithToast("/admin/settings", { title: FEDIVERSE_TEXTS.blocked, type: "success" });
    },
  });
}

export default function SettingsRoute({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-6">
      <SettingsForm settings={loaderData.settings} />
      <SecuritySettingsForm settings={loaderData.security} />
      <StatisticsSettingsForm settings={loaderData.statistics} />
      <FediverseSettingsForm view={loaderData.fediverse} />
      <RemoveDemoContent content={loaderData.demo} empty={loaderData.demoEmpty} />
    </div>
  );
}
