import { requireArea } from "~/features/auth/guards.server";
import { formFailure, withPageFailures, invalidSubmission } from "~/server/failure-reply.server";
import { getSessionUser } from "~/features/auth/session.server";
import { analyticsSettingsFormSchema, STATISTICS_TEXT } from "~/features/analytics/analytics-settings";
import { readAnalyticsSettings, saveAnalyticsSettings } from "~/features/analytics/analytics-settings.server";
import { StatisticsSettingsForm } from "~/features/analytics/statistics-settings-form";
import { SettingsForm } from "~/features/settings/settings-form";
import { SecuritySettingsForm } from "~/features/settings/security-settings-form";
import { SECURITY_SAVED, securitySettingsFormSchema, SETTINGS_SAVED, siteSettingsFormSchema } from "~/features/settings/settings-schema";
import { readSecuritySettings, readSiteSettings, saveSecuritySettings, saveSiteSettings } from "~/features/settings/settings.server";
import { parseSubmission } from "~/lib/forms";
import { getDb } from "~/server/db/client.server";
import { ValidationError } from "~/server/errors.server";
import { readForm } from "~/server/form.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/settings";

export function meta() {
  return [{ title: "Settings" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireArea(request, "settings");
  const db = getDb();
  const [settings, security, statistics] = await Promise.all([readSiteSettings(db), readSecuritySettings(db), readAnalyticsSettings(db)]);
  return { settings, security, statistics };
}

export async function action({ request }: Route.ActionArgs) {
  const actor = await getSessionUser(request);
  const formData = await withPageFailures(() => readForm(request));
  if (formData.get("intent") === "security") {
    const security = parseSubmission(formData, securitySettingsFormSchema);
    try {
      await saveSecuritySettings(getDb(), actor, Object.fromEntries(formData));
      return await redirectWithToast("/admin/settings", { title: SECURITY_SAVED, type: "success" });
    } catch (error) {
      return formFailure(error, security, { refusals: "page" });
    }
  }
  if (formData.get("intent") === "statistics") {
    const statistics = parseSubmission(formData, analyticsSettingsFormSchema);
    try {
      await saveAnalyticsSettings(getDb(), actor, Object.fromEntries(formData));
      return await redirectWithToast("/admin/settings", { title: STATISTICS_TEXT.saved, type: "success" });
    } catch (error) {
      if (error instanceof ValidationError && statistics.status !== "success") return invalidSubmission(statistics);
      return formFailure(error, statistics, { refusals: "page" });
    }
  }
  const submission = parseSubmission(formData, siteSettingsFormSchema);
  try {
    // The domain function decides: a refusal (403) comes before any field error.
    await saveSiteSettings(getDb(), actor, Object.fromEntries(formData));
    return await redirectWithToast("/admin/settings", { title: SETTINGS_SAVED, type: "success" });
  } catch (error) {
    if (error instanceof ValidationError && submission.status !== "success") return invalidSubmission(submission);
    return formFailure(error, submission, { refusals: "page" });
  }
}

export default function SettingsRoute({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-6">
      <SettingsForm settings={loaderData.settings} />
      <SecuritySettingsForm settings={loaderData.security} />
      <StatisticsSettingsForm settings={loaderData.statistics} />
    </div>
  );
}
