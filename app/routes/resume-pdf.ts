import { resumePdfAnswer } from "~/features/settings/demo-resume.server";
import { getSiteSettings } from "~/features/settings/settings.server";

/** GET /resume.pdf — the demo resume while it is the site's, else the owner's (a redirect) or 404. */
export async function loader() {
  return resumePdfAnswer(await getSiteSettings());
}
