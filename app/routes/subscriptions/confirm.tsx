import { countConversion } from "~/features/analytics/attribution.server";
import { Form, Link } from "react-router";
import { z } from "zod";
import { ActionMessage } from "~/components/email-link-page";
import { Button } from "~/components/ui/button";
import { SUBSCRIBE_TEXT } from "~/features/subscriptions/subscription-schema";
import { confirmSubscription } from "~/features/subscriptions/subscriptions.server";
import { getDb } from "~/server/db/client.server";
import { errorAnswer, parseOrThrow } from "~/server/errors.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { readForm } from "~/server/form.server";
import type { Route } from "./+types/confirm";
import { STATIC_PAGE } from "~/lib/hydration";

/** No React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export function meta() {
  return [{ title: "Confirm your subscription" }, { name: "robots", content: "noindex" }];
}

export function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get("token") ?? "" };
}

/** The button's form: the token from the emailed link. */
const confirmFormSchema = z.object({ token: z.string().optional() });

/**
 * The link only shows this button: mail scanners that open links must not confirm an address
 * on their own; the person's click (a POST) does.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await withPageFailures(() => readForm(request));
  try {
    const { token } = parseOrThrow(confirmFormSchema, Object.fromEntries(form), SUBSCRIBE_TEXT.linkInvalid);
    const { subscriberId } = await confirmSubscription(getDb(), token ?? null);
    await countConversion(getDb(), "subscription", subscriberId);
    return { ok: true, message: SUBSCRIBE_TEXT.confirmed };
  } catch (error) {
    return { ok: false, message: errorAnswer(error).message };
  }
}

export default function ConfirmSubscription({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-2xl px-4 py-16">
      <h1 className="text-3xl font-bold">Confirm your subscription</h1>
      {actionData ? (
        <ActionMessage result={actionData} />
      ) : (
        <Form method="post" className="mt-6">
          <input type="hidden" name="token" value={loaderData.token} />
          <Button type="submit">Confirm subscription</Button>
        </Form>
      )}
      {actionData && !actionData.ok ? (
        <Link to="/subscribe" className="mt-4 inline-block text-primary underline">
          Subscribe again
        </Link>
      ) : null}
    </section>
  );
}
