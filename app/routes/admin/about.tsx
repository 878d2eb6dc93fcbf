import { requireArea } from "~/features/auth/guards.server";
import { formFailure, withPageFailures } from "~/server/failure-reply.server";
import { getSessionUser } from "~/features/auth/session.server";
import { PageContentForm } from "~/features/pages/page-content-form";
import { PAGE_CONTENT_SAVED, pageContentFormSchema } from "~/features/pages/page-content-schema";
import { readPageContent, savePageContent } from "~/features/pages/page-content.server";
import { SiteCopyForm } from "~/features/pages/site-copy-form";
import { isSiteCopyKey, siteCopyFormSchema, SITE_COPY_INTENT, SITE_COPY_RESET, SITE_COPY_SAVED } from "~/features/pages/site-copy";
import { readSiteCopy, resetSiteCopyField, saveSiteCopy } from "~/features/pages/site-copy.server";
import { getSiteSettings } from "~/features/settings/settings.server";
import { parseSubmission } from "~/lib/forms";
import { canManageSettings } from "~/lib/permissions";
import { getDb } from "~/server/db/client.server";
import { ValidationError } from "~/server/errors.server";
import { readForm } from "~/server/form.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/about";

export function meta() {
  return [{ title: "About" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireArea(request, "page-content");
  const [content, copy, site] = await Promise.all([readPageContent(getDb()), readSiteCopy(getDb()), getSiteSettings()]);
  return { content, copy, resumeUrl: site.resumeUrl, canOpenSettings: canManageSettings(actor) };
}

export async function action({ request }: Route.ActionArgs) {
  const actor = await getSessionUser(request);
  const formData = await withPageFailures(() => readForm(request));
  if (formData.get("intent") === SITE_COPY_INTENT) return siteCopyAction(actor, formData);
  const submission = parseSubmission(formData, pageContentFormSchema);
  try {
    // The domain function decides: a refusal (403) comes before any field error.
    await savePageContent(getDb(), actor, Object.fromEntries(formData));
    return await redirectWithToast("/admin/about", { title: PAGE_CONTENT_SAVED, type: "success" });
  } catch (error) {
    return formFailure(error, submission, { refusals: "page" });
  }
}

/** The page texts' form: save every field, or one field's "Reset to default". */
async function siteCopyAction(actor: Awaited<ReturnType<typeof getSessionUser>>, formData: FormData) {
  const submission = parseSubmission(formData, siteCopyFormSchema);
  const reset = formData.get(SITE_COPY_RESET);
  try {
    if (reset !== null) {
      if (!isSiteCopyKey(reset)) throw new ValidationError("There is no such text to reset.");
      await resetSiteCopyField(getDb(), actor, reset);
    } else {
      await saveSiteCopy(getDb(), actor, Object.fromEntries(formData));
    }
    return await redirectWithToast("/admin/about", { title: SITE_COPY_SAVED, type: "success" });
  } catch (error) {
    return formFailure(error, submission, { refusals: "page" });
  }
}

export default function AboutAdminRoute({ loaderData }: Route.ComponentProps) {
  const { copy, ...content } = loaderData;
  return (
    <div className="flex flex-col gap-12">
      <PageContentForm {...content} />
      {/* A new key after a save or reset: the fields show the stored texts, not what the form last held. */}
      <SiteCopyForm key={JSON.stringify(copy)} copy={copy} />
    </div>
  );
}
