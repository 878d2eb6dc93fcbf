import { data } from "react-router";
import { NotFoundMessage } from "~/components/not-found-message";
import { CommentsSection } from "~/features/comments/comments-section";
import { pageCommentsView } from "~/features/comments/comments.server";
import { requireTwoFactorForStaff } from "~/features/auth/guards.server";
import { getSessionUser } from "~/features/auth/session.server";
import { OwnerPageArticle } from "~/features/owner-pages/owner-page-article";
import { ownerPageJsonLd, ownerPagePath } from "~/features/owner-pages/owner-page-schema";
import { getSiteSettings } from "~/features/settings/settings.server";
import { publicSiteUrl } from "~/features/settings/site-url.server";
import { getReadablePage } from "~/features/owner-pages/owner-pages.server";
import { plainText } from "~/features/feeds/parse-feed.server";
import { useLayoutCopy } from "~/features/pages/use-layout-copy";
import { statusTitle } from "~/lib/http-status";
import { STATIC_PAGE } from "~/lib/hydration";
import { seoContext, seoMeta } from "~/lib/seo";
import { getDb } from "~/server/db/client.server";
import { logger } from "~/server/logger.server";
import type { Route } from "./+types/owner-page";

/** No React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

const NOT_PUBLIC = { "X-Robots-Tag": "noindex", "Cache-Control": "private, no-store" };

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

/**
 * GET /{address} — one of the owner's pages. A draft, an unpublished or a missing page is the site's
 * 404 for visitors; those who edit pages see a draft (never cached, never indexed).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  const db = getDb();
  const page = await getReadablePage(db, params.address, user);
  if (!page) {
    logger.warn({ path: new URL(request.url).pathname }, "404: page not found");
    return data({ found: false as const }, { status: 404 });
  }
  if (!page.published) await requireTwoFactorForStaff(request, "page");
  const view = {
    title: page.title,
    path: ownerPagePath(page.address),
    html: page.contentHtml,
    published: page.published,
    metaTitle: page.metaTitle,
    // Without a description of its own, a page is described by its opening words (as a post is).
    description: page.metaDescription ?? (plainText(page.contentHtml, 160) || page.title),
  };
  const [comments, site, publicUrl] = await Promise.all([pageCommentsView(db, page), getSiteSettings(), publicSiteUrl()]);
  const jsonLd = ownerPageJsonLd(publicUrl, page, site.siteName, comments ? comments.count : null);
  return data({ found: true as const, page: view, comments, jsonLd }, page.published ? undefined : { headers: NOT_PUBLIC });
}

export function meta({ data: d, matches }: Route.MetaArgs) {
  if (!d?.found) return [{ title: statusTitle(404) }, { name: "robots", content: "noindex" }];
  const { page } = d;
  return [
    ...seoMeta(seoContext(matches), {
      title: page.metaTitle ?? page.title,
      description: page.description,
      path: page.path,
      noindex: !page.published,
    }),
    // React Router's <Meta> escapes `<` in JSON-LD, so a title can never close the script element.
    ...(page.published ? [{ "script:ld+json": d.jsonLd }] : []),
  ];
}

export default function OwnerPageRoute({ loaderData }: Route.ComponentProps) {
  const copy = useLayoutCopy();
  if (!loaderData.found) return <NotFoundMessage text={copy.notFoundText} />;
  return (
    <>
      <OwnerPageArticle page={loaderData.page} />
      {loaderData.page.published && loaderData.comments ? <CommentsSection {...loaderData.comments} /> : null}
    </>
  );
}
