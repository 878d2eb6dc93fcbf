import { data, Form } from "react-router";
import { ActionMessage } from "~/components/email-link-page";
import { Button } from "~/components/ui/button";
import { SUBSCRIBE_TEXT } from "~/features/subscriptions/subscription-schema";
import { getSubscription, unsubscribe } from "~/features/subscriptions/subscriptions.server";
import { getDb } from "~/server/db/client.server";
import { errorAnswer } from "~/server/errors.server";
import { messageReply } from "~/server/failure-reply.server";
import type { Route } from "./+types/unsubscribe";
import { STATIC_PAGE } from "~/lib/hydration";

/** No React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export function meta() {
  return [{ title: "Unsubscribe" }, { name: "robots", content: "noindex" }];
}

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token");

/** GET shows the address and a button; nothing changes until it is pressed. */
export async function loader({ request }: Route.LoaderArgs) {
  const token = tokenOf(request);
  try {
    const { email, state } = await getSubscription(getDb(), token);
    return { found: true as const, token: token ?? "", email, unsubscribed: state === "unsubscribed" };
  } catch (error) {
    const { status, message } = errorAnswer(error);
    return data({ found: false as const, message }, { status });
  }
}

/**
 * RFC 8058 one-click: a POST to the emailed URL unsubscribes, with no confirmation page (mail
 * clients send `List-Unsubscribe=One-Click`; the button below posts the same way). The token is
 * in the URL, so the body is not needed.
 */
export async function action({ request }: Route.ActionArgs) {
  return messageReply(async () => {
    await unsubscribe(getDb(), tokenOf(request));
    return SUBSCRIBE_TEXT.unsubscribed;
  });
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-2xl px-4 py-16">
      <h1 className="text-3xl font-bold">Unsubscribe</h1>
      {actionData ? (
        <ActionMessage result={actionData} />
      ) : !loaderData.found ? (
        <p role="alert" className="mt-4">
          {loaderData.message}
        </p>
      ) : loaderData.unsubscribed ? (
        <p className="mt-4">{SUBSCRIBE_TEXT.unsubscribed}</p>
      ) : (
        <Form method="post" action={`/unsubscribe?token=${encodeURIComponent(loaderData.token)}`} className="mt-6 space-y-4">
          <p>
            Stop all emails to <strong>{loaderData.email}</strong>?
          </p>
          <input type="hidden" name="List-Unsubscribe" value="One-Click" />
          <Button type="submit">Unsubscribe</Button>
        </Form>
      )}
    </section>
  );
}
