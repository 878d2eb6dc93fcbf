import { handleAdminForm } from "~/features/admin/admin-form.server";
import { requireArea } from "~/features/auth/guards.server";
import { PageForm, type PageFormValues } from "~/features/owner-pages/page-form";
import { ownerPageFormSchema, ownerPagePath } from "~/features/owner-pages/owner-page-schema";
import { createPage, getPageForEditing, readPageAutosave, updatePage } from "~/features/owner-pages/owner-pages.server";
import { formatInZone } from "~/lib/time-zone";
import { getDb } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { invalidSubmission, withPageFailures } from "~/server/failure-reply.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/page-edit";

export function meta({ data: d }: Route.MetaArgs) {
  return [{ title: d?.page ? `Edit page: ${d.initial.title}` : "New page" }, { name: "robots", content: "noindex" }];
}

const EMPTY: PageFormValues = {
  title: "",
  address: "",
  content: "",
  metaTitle: "",
  metaDescription: "",
  published: false,
  commentsEnabled: false,
};

/** /admin/pages/new and /admin/pages/:pageId — the page editor (whoever may edit page content). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const actor = await requireArea(request, "page-content");
  const db = getDb();
  const page = params.pageId ? await withPageFailures(() => getPageForEditing(db, actor, params.pageId)) : null;
  const saved = await readPageAutosave(db, actor, page?.id ?? null);
  const newer =
    saved && (!page || saved.updatedAt > page.updatedAt) && (!page || saved.title !== page.title || saved.content !== page.content);
  return {
    page: page ? { id: page.id, version: page.version, address: page.address, published: page.published } : null,
    initial: page
      ? {
          title: page.title,
          address: ownerPagePath(page.address),
          content: page.content,
          metaTitle: page.metaTitle ?? "",
          metaDescription: page.metaDescription ?? "",
          published: page.published,
          commentsEnabled: page.commentsEnabled,
        }
      : EMPTY,
    autosave: newer
      ? {
          title: saved.title,
          content: saved.content,
          savedAt: saved.updatedAt.toISOString(),
          savedAtLabel: formatInZone(saved.updatedAt, getEnv().SITE_TIME_ZONE),
        }
      : null,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleAdminForm(request, "page-content", {
    save: async ({ actor, db, parse }) => {
      const submission = parse(ownerPageFormSchema);
      if (submission.status !== "success") return invalidSubmission(submission);
      const saved = params.pageId
        ? await updatePage(db, actor, params.pageId, submission.value)
        : await createPage(db, actor, submission.value);
      return redirectWithToast(`/admin/pages/${saved.id}`, {
        title: params.pageId ? "Page saved" : "Page created",
        description: saved.published ? `It is live at ${ownerPagePath(saved.address)}.` : "It is a draft: visitors do not see it.",
        type: "success",
      });
    },
  });
}

export default function PageEditRoute({ loaderData }: Route.ComponentProps) {
  // A new key after a save: the editor starts from what was stored.
  return <PageForm key={`${loaderData.page?.id ?? "new"}-${loaderData.page?.version ?? 0}`} {...loaderData} />;
}
