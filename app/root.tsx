import "./lib/zod-csp";
import { useEffect } from "react";
import { data, isRouteErrorResponse, Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";
import { toast as showToast, Toaster } from "sonner";
import type { Route } from "./+types/root";
import "./app.css";
import { AdminSidebarProvider } from "./features/admin/sidebar-state";
import { getSessionUser } from "./features/auth/session.server";
import { SiteFooter } from "./features/site/site-footer";
import { SiteHeader } from "./features/site/site-header";
import { getSiteSettings } from "./features/site/settings.server";
import { getVerificationConfig } from "./features/verification/verification.server";
import { THEME_SCRIPT } from "./lib/theme";
import { getEnv } from "./server/env.server";
import { requestNonce } from "./server/nonce.server";
import { clearToastCookie, readToast } from "./server/toast.server";

/** Feed discovery on every page: the whole blog's RSS (category pages add their own feed). */
export const links: Route.LinksFunction = () => [
  { rel: "alternate", type: "application/rss+xml", title: "7 Fs Framework", href: "/rss.xml" },
];

export async function loader({ request }: Route.LoaderArgs) {
  // A visitor without cookies is anonymous and has no toast: nothing per-visitor is read, so the page
  // can be cached and shared (server/page-handler.ts). The settings come from memory.
  const anonymous = !request.headers.get("cookie");
  const sessionUser = anonymous ? null : await getSessionUser(request);
  const toast = anonymous ? null : await readToast(request);
  const user = sessionUser ? { id: sessionUser.id, email: sessionUser.email, role: sessionUser.role, canEdit: sessionUser.canEdit } : null;
  const site = await getSiteSettings();
  const publicUrl = getEnv().publicUrl;
  return data(
    // This response's CSP nonce, for the theme script in <head> (the router's own scripts get it from entry.server).
    {
      user,
      toast,
      publicUrl,
      site,
      // The subscribe form in the footer (and on blog pages) shows the active verifier.
      verification: getVerificationConfig(),
      nonce: requestNonce(request),
      seo: { publicUrl, siteName: site.siteName, socialImageUrl: site.socialImageUrl },
    },
    toast ? { headers: { "Set-Cookie": await clearToastCookie() } } : undefined,
  );
}

/** Sets the theme class before the first paint (see lib/theme.ts); first in <head> so nothing paints before it. */
function ThemeScript({ nonce }: { nonce?: string }) {
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  return (
    // The head script may add the dark class before React hydrates: that difference is expected.
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <ThemeScript nonce={rootData?.nonce} />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.ico" sizes="32x32" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="apple-touch-icon" href="/apple-touch-icon.png" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-background focus:p-2"
        >
          Skip to content
        </a>
        <AdminSidebarProvider>
          <SiteHeader />
          <main id="main" className="flex-1 pt-16">
            {children}
          </main>
        </AdminSidebarProvider>
        <SiteFooter />
        <Toaster visibleToasts={3} duration={4000} richColors closeButton />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { toast } = loaderData;
  useEffect(() => {
    if (!toast) return;
    const show = toast.type === "error" ? showToast.error : toast.type === "info" ? showToast.info : showToast.success;
    show(toast.title, { description: toast.description });
  }, [toast]);
  return <Outlet />;
}

/** The one error boundary: never shows a stack trace to visitors in production. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  let title = "Something went wrong";
  let details = "An unexpected error occurred. Please try again.";
  let stack: string | undefined;
  if (isRouteErrorResponse(error)) {
    title = error.status === 404 ? "Oops! Page not found" : `${error.status} ${error.statusText || "Error"}`;
    // React Router's own errors (e.g. a POST to a page without an action) carry developer text: not shown.
    const internal = "internal" in error && error.internal === true;
    if (error.status === 405) details = "This page does not accept that kind of request. Open it with a normal link instead.";
    else if (!internal && typeof error.data === "string" && error.data) details = error.data;
  } else if (import.meta.env.DEV && error instanceof Error) {
    details = error.message;
    stack = error.stack;
  }
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center">
      <title>{title}</title>
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="mt-4 text-muted-foreground">{details}</p>
      <Link to="/" className="mt-6 inline-block text-primary underline">
        Return to Home
      </Link>
      {stack ? (
        <pre className="mt-6 overflow-x-auto text-left text-xs">
          <code>{stack}</code>
        </pre>
      ) : null}
    </section>
  );
}
