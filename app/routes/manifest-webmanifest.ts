import { getSiteSettings } from "~/features/settings/settings.server";

/**
 * GET /manifest.webmanifest — the web app manifest: the site's name and its icons (192 and 512 made
 * from the uploaded favicon or logo, else the default icons).
 */
export async function loader() {
  const site = await getSiteSettings();
  const icons = site.icons
    ? [
        { src: site.icons.png192, sizes: "192x192", type: "image/png" },
        { src: site.icons.png512, sizes: "512x512", type: "image/png" },
      ]
    : [
        { src: "/favicon.svg", sizes: "any", type: "image/svg+xml" },
        { src: "/apple-touch-icon.png", sizes: "180x180", type: "image/png" },
      ];
  const manifest = { name: site.siteName, short_name: site.siteName.slice(0, 12), start_url: "/", display: "browser", icons };
  return new Response(JSON.stringify(manifest), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
