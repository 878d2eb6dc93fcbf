import { AdminErrorPage } from "~/features/admin/admin-error-page";
import { AdminShellPage } from "~/features/admin/admin-shell";
import { adminShellData } from "~/features/admin/admin-shell-data.server";
import { requireAdminShell, requireTwoFactorSetup } from "~/features/auth/guards.server";
import { readMailBanner } from "~/features/mail/mail-settings.server";
import { getDb } from "~/server/db/client.server";
import type { Route } from "./+types/layout";

export function meta() {
  return [{ title: "Admin Panel" }, { name: "robots", content: "noindex" }];
}

// Runs before every admin loader and action (the children's too, for data requests).
export const middleware: Route.MiddlewareFunction[] = [({ request }) => requireTwoFactorSetup(request)];

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireAdminShell(request);
  const [shell, mail] = await Promise.all([adminShellData(request, actor), readMailBanner(request, getDb(), actor)]);
  return { ...shell, mail };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return <AdminShellPage {...loaderData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorPage error={error} />;
}
