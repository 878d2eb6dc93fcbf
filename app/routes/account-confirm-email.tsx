import { Form, Link } from "react-router";
import { ActionMessage } from "~/components/email-link-page";
import { Button } from "~/components/ui/button";
import { confirmEmailChange } from "~/features/account/account-email.server";
import { STATIC_PAGE } from "~/lib/hydration";
import { getDb } from "~/server/db/client.server";
import { messageReply, withPageFailures } from "~/server/failure-reply.server";
import { readForm } from "~/server/form.server";
import type { Route } from "./+types/account-confirm-email";

/** No React: the page may be opened by anyone holding the link, signed in or not (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export const meta = () => [{ title: "Confirm your new sign-in email" }, { name: "robots", content: "noindex" }];

/** The token of the link, sent back by the button. */
export const loader = ({ request }: Route.LoaderArgs) => ({ token: new URL(request.url).searchParams.get("token") ?? "" });

/**
 * The link only shows this button: a mail scanner opening the link must not change the account on its
 * own; the person's click (a POST) does.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await withPageFailures(() => readForm(request));
  return messageReply(async () => {
    const { email } = await confirmEmailChange(getDb(), Object.fromEntries(form), request);
    return `Your sign-in email is now ${email}. Sign in with it from now on.`;
  });
}

export default function ConfirmEmailChange({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData ? (
    <div className="mt-4 flex flex-col gap-4">
      <ActionMessage result={actionData} className="" />
      {actionData.ok ? (
        <Link to="/auth" className="text-primary underline">
          Sign in
        </Link>
      ) : null}
    </div>
  ) : null;
  return (
    <section className="mx-auto max-w-2xl px-4 py-16">
      <h1 className="text-3xl font-bold">Confirm your new sign-in email</h1>
      {answer ?? (
        <Form method="post" className="mt-6">
          <input name="token" type="hidden" value={loaderData.token} />
          <Button type="submit">Confirm new email</Button>
        </Form>
      )}
    </section>
  );
}
