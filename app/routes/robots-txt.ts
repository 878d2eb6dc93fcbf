import { publicSiteUrl } from "~/features/settings/site-url.server";

/** GET /robots.txt — everything public may be crawled; the admin area, auth and APIs may not. */
export async function loader() {
  const publicUrl = await publicSiteUrl();
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /auth",
    "Disallow: /api/",
    "",
    `Sitemap: ${publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
