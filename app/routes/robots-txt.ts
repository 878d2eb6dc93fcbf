import { getEnv } from "~/server/env.server";

/** GET /robots.txt — everything public may be crawled; the admin area, auth and APIs may not. */
export function loader() {
  const { publicUrl } = getEnv();
  const body = ["User-agent: *", "Allow: /", "Disallow: /admin", "Disallow: /auth", "Disallow: /api/", "", `Sitemap: ${publicUrl}/sitemap.xml`, ""].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}

/** Any other method: a plain 405 a person can read (instead of the framework's generic error). */
export function action() {
  return new Response("Method not allowed: this address only answers GET.\n", { status: 405, headers: { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" } });
}
