import { publicSiteUrl } from "~/features/settings/site-url.server";
import type { Route } from "./+types/robots-txt";

/** GET /robots.txt — everything public may be crawled; the admin area, auth and APIs may not. */
export async function loader({ request }: Route.LoaderArgs) {
  const publicUrl = await publicSiteUrl(request);
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
