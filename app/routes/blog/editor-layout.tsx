import { AdminErrorPage } from "~/features/admin/admin-error-page";
import { AdminShellPage } from "~/features/admin/admin-shell";
import { adminShellData } from "~/features/admin/admin-shell-data.server";
import { requireStaff, requireTwoFactorForStaff } from "~/features/auth/guards.server";
import { readMailBanner } from "~/features/mail/mail-settings.server";
import { getDb } from "~/server/db/client.server";
import type { Route } from "./+types/editor-layout";

/**
 * The post editor keeps its SPEC addresses (/7fs/{category}/new, /…/edit) and is drawn in the admin
 * shell. Its guard stays the editor's: anonymous → /auth and back, a reader → 403 (the admin area
 * itself sends a refused user home with a toast).
 */
// While the site requires 2FA of staff, the editor sends a staff member without it to set it up.
export const middleware: Route.MiddlewareFunction[] = [({ request }) => requireTwoFactorForStaff(request, "page")];

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireStaff(request);
  const [shell, mail] = await Promise.all([adminShellData(request, actor), readMailBanner(request, getDb(), actor)]);
  return { ...shell, mail };
}

export default function EditorLayout({ loaderData }: Route.ComponentProps) {
  return <AdminShellPage {...loaderData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorPage error={error} />;
}
