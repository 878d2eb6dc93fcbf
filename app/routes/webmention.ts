import { acceptWebmention, WEBMENTION_TEXTS } from "~/features/webmentions/receive.server";
import { publicSiteUrl } from "~/features/settings/site-url.server";
import { getDb } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { apiFailure } from "~/server/failure-reply.server";
import { readForm } from "~/server/form.server";
import { clientIp } from "~/server/request.server";
import type { Route } from "./+types/webmention";

/**
 * POST /webmention — the Webmention endpoint (W3C Webmention §3.2): form fields source and target.
 * 202 once the request is checked and queued (the source is fetched later, on the job runner); 400
 * with a sentence saying what is wrong; 429 with Retry-After when a site sends too many.
 */
export async function action({ request }: Route.ActionArgs) {
  try {
    const form = await readForm(request);
    const origins = [...new Set([new URL(await publicSiteUrl()).origin, new URL(request.url).origin, new URL(getEnv().publicUrl).origin])];
    const input = { source: form.get("source") ?? undefined, target: form.get("target") ?? undefined };
    await acceptWebmention(getDb(), input, clientIp(request), origins);
    return new Response(`${WEBMENTION_TEXTS.accepted}\n`, {
      status: 202,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  } catch (error) {
    return apiFailure(error);
  }
}

// No loader: GET/HEAD and other methods are answered 405 (with Allow) by server/app.ts.
