import { handleAdminForm } from "~/features/admin/admin-form.server";
import { requireArea } from "~/features/auth/guards.server";
import { MENUS_INTENT, MenuEditor } from "~/features/layout/menu-editor";
import { MENUS_RESET, MENUS_SAVED, menusFormSchema } from "~/features/layout/menus-schema";
import { readMenusForEditing, resetMenus, saveMenus } from "~/features/layout/menus.server";
import { listPagesForAdmin } from "~/features/owner-pages/owner-pages.server";
import { canEditPageContent } from "~/lib/permissions";
import { getDb } from "~/server/db/client.server";
import { invalidSubmission } from "~/server/failure-reply.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/menus";

export function meta() {
  return [{ title: "Menus" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireArea(request, "settings");
  const db = getDb();
  const [menus, pages] = await Promise.all([
    readMenusForEditing(db),
    canEditPageContent(actor) ? listPagesForAdmin(db, actor) : Promise.resolve([]),
  ]);
  return { ...menus, pages: pages.map(({ id, title, address, published }) => ({ id, title, address, published })) };
}

export async function action({ request }: Route.ActionArgs) {
  return handleAdminForm(request, "settings", {
    [MENUS_INTENT.save]: async ({ actor, db, parse }) => {
      const submission = parse(menusFormSchema);
      if (submission.status !== "success") return invalidSubmission(submission);
      await saveMenus(db, actor, submission.value.menus);
      return redirectWithToast("/admin/menus", { title: MENUS_SAVED, type: "success" });
    },
    [MENUS_INTENT.reset]: async ({ actor, db }) => {
      await resetMenus(db, actor);
      return redirectWithToast("/admin/menus", { title: MENUS_RESET, type: "success" });
    },
  });
}

export default function MenusRoute({ loaderData }: Route.ComponentProps) {
  // A new key after a save or reset: the editor starts from what was stored.
  return <MenuEditor key={JSON.stringify(loaderData.menus)} {...loaderData} />;
}
