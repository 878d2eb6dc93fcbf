import { isRouteErrorResponse } from "react-router";
import { ErrorMessage, errorDetails } from "~/components/error-message";
import { NotFoundMessage } from "~/components/not-found-message";
import { AdminShell } from "~/features/admin/admin-shell";
import { readAdminShellFacts } from "~/features/admin/two-factor-guard.server";
import { requireAdminShell, requireTwoFactorSetup } from "~/features/auth/guards.server";
import { adminNavFor, SIDEBAR_COOKIE } from "~/features/admin/nav";
import { MailBanner } from "~/features/mail/mail-banner";
import { readMailBanner } from "~/features/mail/mail-settings.server";
import { ROLE_LABELS } from "~/lib/roles";
import { getDb } from "~/server/db/client.server";
import { readCookie } from "~/server/cookies.server";
import type { Route } from "./+types/layout";

export function meta() {
  return [{ title: "Admin Panel" }, { name: "robots", content: "noindex" }];
}

// Runs before every admin loader and action (the children's too, for data requests).
export const middleware: Route.MiddlewareFunction[] = [({ request }) => requireTwoFactorSetup(request)];

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireAdminShell(request);
  return {
    user: { email: actor.email, roleLabel: ROLE_LABELS[actor.role] },
    // Only the paths: the permission functions stay on the server, the list is filtered here.
    nav: adminNavFor(actor).map((item) => item.to),
    sidebarOpen: readCookie(request, SIDEBAR_COOKIE) !== "false",
    unreadMessages: (await readAdminShellFacts(request, actor)).unreadMessages,
    mail: await readMailBanner(getDb(), actor),
  };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { mail, ...shell } = loaderData;
  return <AdminShell {...shell} banner={<MailBanner mail={mail} canFix={shell.nav.includes("/admin/email")} />} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // The admin shell is not drawn around its own error page: the page carries the one main landmark.
  return (
    <main id="main" className="flex-1">
      {status === 404 ? (
        <NotFoundMessage />
      ) : (
        <ErrorMessage status={status} details={errorDetails(error)} home="/admin" homeLabel="Back to Dashboard" />
      )}
    </main>
  );
}
