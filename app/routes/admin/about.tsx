import { requireArea } from "~/features/auth/guards.server";
import { formFailure, withPageFailures } from "~/server/failure-reply.server";
import { getSessionUser } from "~/features/auth/session.server";
import { PageContentForm } from "~/features/pages/page-content-form";
import { PAGE_CONTENT_SAVED, pageContentFormSchema } from "~/features/pages/page-content-schema";
import { readPageContent, savePageContent } from "~/features/pages/page-content.server";
import { getSiteSettings } from "~/features/settings/settings.server";
import { parseSubmission } from "~/lib/forms";
import { canManageSettings } from "~/lib/permissions";
import { getDb } from "~/server/db/client.server";
import { readForm } from "~/server/form.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/about";

export function meta() {
  return [{ title: "About" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireArea(request, "page-content");
  const [content, site] = await Promise.all([readPageContent(getDb()), getSiteSettings()]);
  return { content, resumeUrl: site.resumeUrl, canOpenSettings: canManageSettings(actor) };
}

export async function action({ request }: Route.ActionArgs) {
  const actor = await getSessionUser(request);
  const formData = await withPageFailures(() => readForm(request));
  const submission = parseSubmission(formData, pageContentFormSchema);
  try {
    // The domain function decides: a refusal (403) comes before any field error.
    await savePageContent(getDb(), actor, Object.fromEntries(formData));
    return await redirectWithToast("/admin/about", { title: PAGE_CONTENT_SAVED, type: "success" });
  } catch (error) {
    return formFailure(error, submission, { refusals: "page" });
  }
}

export default function AboutAdminRoute({ loaderData }: Route.ComponentProps) {
  return <PageContentForm {...loaderData} />;
}
