import "./lib/zod-csp";
import { useEffect } from "react";
import { data, isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import { isMailConfigured, subscriptionOffer } from "~/server/mail-settings.server";
import stylesheetUrl from "./app.css?url";
import { ErrorMessage, errorDetails, errorStack } from "./components/error-message";
import { NotFoundMessage } from "./components/not-found-message";
import { toast as showToast, Toaster } from "./components/toaster";
import { AdminSidebarProvider, useAdminSidebar } from "./features/admin/sidebar-state";
import { getSessionUser } from "./features/auth/session.server";
import { SiteFooter } from "./features/layout/site-footer";
import { SiteHeader } from "./features/layout/site-header";
import { getSiteSettings } from "./features/settings/settings.server";
import { brandHead, type BrandHead } from "./features/settings/brand.server";
import { readLayoutCopy } from "./features/pages/site-copy.server";
import { readMenus } from "./features/layout/menus.server";
import { useLayoutCopy } from "./features/pages/use-layout-copy";
import { getDb } from "./server/db/client.server";
import type { SiteIcons } from "./features/uploads/site-icons";
import { publicSiteUrl } from "./features/settings/site-url.server";
import { statusTitle } from "./lib/http-status";
import { pageOptsOutOfHydration } from "./lib/hydration";
import { getVerificationConfig } from "./features/verification/verification.server";
import { THEME_SCRIPT } from "./lib/theme";
import { enhanceScriptUrl } from "./server/enhance-script.server";
import { requestNonce } from "./server/nonce.server";
import { clearToastCookie, readToast } from "./server/toast.server";

/** Feed discovery on every page: the whole blog's RSS (category pages add their own feed). */
export const links: Route.LinksFunction = () => [
  // With a precedence React writes the stylesheet at the top of <head>, before the scripts' preloads,
  // so the browser asks for it first (it blocks the first paint; they do not).
  { rel: "stylesheet", href: stylesheetUrl, precedence: "default" },
  { rel: "alternate", type: "application/rss+xml", title: "7 Fs Framework", href: "/rss.xml" },
];

export async function loader({ request }: Route.LoaderArgs) {
  // A visitor without cookies is anonymous and has no toast: nothing per-visitor is read, so the page
  // can be cached and shared (server/page-handler.ts). The settings come from memory.
  const anonymous = !request.headers.get("cookie");
  const sessionUser = anonymous ? null : await getSessionUser(request);
  const toast = anonymous ? null : await readToast(request);
  const user = sessionUser ? { id: sessionUser.id, email: sessionUser.email, role: sessionUser.role, canEdit: sessionUser.canEdit } : null;
  const [site, copy, menus] = await Promise.all([getSiteSettings(), readLayoutCopy(getDb()), readMenus(getDb())]);
  const publicUrl = await publicSiteUrl(request);
  return data(
    // This response's CSP nonce, for the theme script in <head> (the router's own scripts get it from entry.server).
    {
      user,
      toast,
      publicUrl,
      site,
      // The footer's and the not-found page's texts (the owner's, or the defaults).
      copy,
      // The header menu and the footer's columns (the owner's, or the defaults).
      menus,
      // Whether public pages offer the Subscribe form (only while email can be sent).
      subscriptionOffer: await subscriptionOffer(),
      // The password reset form is offered only while email can be sent.
      mailConfigured: await isMailConfigured(),
      // The subscribe form in the footer (and on blog pages) shows the active verifier.
      verification: getVerificationConfig(),
      nonce: requestNonce(request),
      // The accent colour's tokens and the font pairing's faces (null: the theme as app.css has it).
      brand: brandHead(site),
      enhanceScript: enhanceScriptUrl(),
      seo: { publicUrl, siteName: site.siteName, socialImageUrl: site.socialImageUrl },
    },
    toast ? { headers: { "Set-Cookie": await clearToastCookie() } } : undefined,
  );
}

/** Sets the theme class before the first paint (see lib/theme.ts); first in <head> so nothing paints before it. */
function ThemeScript({ nonce }: { nonce?: string }) {
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />;
}

/**
 * The brand after the stylesheet, so its custom properties win: plain CSS made on the server from
 * validated settings (no script; style-src allows it, and it carries this response's nonce too).
 * Only the chosen pairing's font files are preloaded.
 */
function BrandStyle({ brand, nonce }: { brand: BrandHead; nonce?: string }) {
  return (
    <>
      {brand.fontPreloads.map((href) => (
        <link key={href} rel="preload" href={href} as="font" type="font/woff2" crossOrigin="anonymous" />
      ))}
      <style nonce={nonce} dangerouslySetInnerHTML={{ __html: brand.css }} />
    </>
  );
}

/**
 * The public header and footer around every page but the admin area's, which draws its own shell
 * (sidebar, slim top bar, its own main landmark).
 */
function SiteChrome({ children }: { children: React.ReactNode }) {
  const { onAdminRoute } = useAdminSidebar();
  if (onAdminRoute) return <>{children}</>;
  return (
    <>
      <SiteHeader />
      <main id="main" className="flex-1 pt-16">
        {children}
      </main>
      <SiteFooter />
    </>
  );
}

/** The uploaded favicon's sizes when the owner set one, else the default icons. */
function SiteIconLinks({ icons }: { icons: SiteIcons | null }) {
  return (
    <>
      {icons ? (
        <>
          <link rel="icon" href={icons.png32} sizes="32x32" type="image/png" />
          <link rel="icon" href={icons.png48} sizes="48x48" type="image/png" />
          <link rel="apple-touch-icon" href={icons.appleTouch} />
        </>
      ) : (
        <>
          <link rel="icon" href="/favicon.ico" sizes="32x32" />
          <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
          <link rel="apple-touch-icon" href="/apple-touch-icon.png" />
        </>
      )}
      <link rel="manifest" href="/manifest.webmanifest" />
    </>
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const matches = useMatches();
  // A page whose routes all opt out (lib/hydration.ts) ships no React to an anonymous
  // visitor without a toast — the same HTML for every such visitor, so the page cache can share it.
  const hydrate = !rootData || Boolean(rootData.user) || Boolean(rootData.toast) || !pageOptsOutOfHydration(matches);
  return (
    // The head script may add the dark class before React hydrates: that difference is expected.
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <ThemeScript nonce={rootData?.nonce} />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <SiteIconLinks icons={rootData?.site.icons ?? null} />
        <Meta />
        <Links />
        {rootData?.brand ? <BrandStyle brand={rootData.brand} nonce={rootData.nonce} /> : null}
      </head>
      <body className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-background focus:p-2"
        >
          Skip to content
        </a>
        <AdminSidebarProvider>
          <SiteChrome>{children}</SiteChrome>
        </AdminSidebarProvider>
        <Toaster always={Boolean(rootData?.user)} />
        {hydrate ? (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        ) : null}
        {rootData?.enhanceScript ? <script type="module" src={rootData.enhanceScript} /> : null}
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { toast } = loaderData;
  // Marks the page as interactive (root effects run after every child's): e2e tests type only after it.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  useEffect(() => {
    if (!toast) return;
    const show = toast.type === "error" ? showToast.error : toast.type === "info" ? showToast.info : showToast.success;
    show(toast.title, { description: toast.description });
  }, [toast]);
  return <Outlet />;
}

/** The one error boundary: never shows a stack trace to visitors in production. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { notFoundText } = useLayoutCopy();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // Every 404 looks like the not-found page, whichever loader refused.
  if (status === 404) {
    return (
      <>
        <title>{statusTitle(404)}</title>
        <NotFoundMessage text={notFoundText} />
      </>
    );
  }
  return <ErrorMessage status={status} details={errorDetails(error)} stack={errorStack(error)} home="/" homeLabel="Return to Home" />;
}
