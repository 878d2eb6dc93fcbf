import { SubscribeForm, type SubscribeActionData } from "~/features/subscriptions/subscribe-form";
import { subscribeSchema } from "~/features/subscriptions/subscription-schema";
import { SubscribeOffer, useSubscriptionOffer } from "~/features/subscriptions/subscribe-offer";
import { subscribe } from "~/features/subscriptions/subscriptions.server";
import { parseSubmission } from "~/lib/forms";
import { seoContext, seoMeta } from "~/lib/seo";
import { getDb } from "~/server/db/client.server";
import { withPageFailures, formFailure, invalidSubmission } from "~/server/failure-reply.server";
import { readForm } from "~/server/form.server";
import { clientIp } from "~/server/request.server";
import type { Route } from "./+types/subscribe";
import { STATIC_PAGE } from "~/lib/hydration";

/** No React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: "Subscribe — 7 Fs Framework",
    description: "New posts of the 7 Fs Framework by email, for the categories you choose.",
    path: "/subscribe",
  });
}

/** Every subscribe form posts here: the fetcher gets the answer as data, a plain post gets this page. */
export async function action({ request }: Route.ActionArgs) {
  const form = await withPageFailures(() => readForm(request));
  const submission = parseSubmission(form, subscribeSchema);
  if (submission.status !== "success") return invalidSubmission(submission);
  const token = form.get("verificationToken");
  try {
    await subscribe(getDb(), { ...submission.value, verificationToken: typeof token === "string" ? token : null }, clientIp(request));
    return { ok: true } satisfies SubscribeActionData;
  } catch (error) {
    return formFailure(error, submission);
  }
}

export default function Subscribe({ actionData }: Route.ComponentProps) {
  const offer = useSubscriptionOffer();
  if (offer !== "form" && !actionData) {
    return (
      <div className="mx-auto max-w-2xl px-4 py-16">
        <SubscribeOffer id="subscribe-page" page />
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-2xl px-4 py-16">
      <SubscribeForm id="subscribe-page" heading="Subscribe" headingLevel="h1" actionData={actionData} />
    </div>
  );
}
