import DEMO_RESUME from "./demo-resume.pdf?raw";
import type { SiteSettings } from "./settings-schema";
import { DEMO_RESUME_PATH } from "./site-defaults";

/**
 * GET /resume.pdf, the shipped demo resume: served only while the settings' resume link is still the
 * demo's. Once the owner sets a resume of their own, this address redirects there (old links and
 * shared copies keep working and reach the owner's); with no resume set at all, it is not found.
 * The file is plain ASCII, bundled into the server (never a public static file that would outlive the demo).
 */
export function resumePdfAnswer(settings: Pick<SiteSettings, "resumeUrl">): Response {
  const url = settings.resumeUrl.trim();
  if (url === DEMO_RESUME_PATH) {
    return new Response(DEMO_RESUME, {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": 'inline; filename="resume.pdf"',
        "Cache-Control": "public, max-age=300",
      },
    });
  }
  if (url) return new Response(null, { status: 302, headers: { Location: url, "Cache-Control": "no-cache" } });
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache" } });
}
