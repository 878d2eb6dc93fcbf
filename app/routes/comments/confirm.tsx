import { EmailLinkPage } from "~/components/email-link-page";
import { confirmCommentEmail } from "~/features/comments/comment-authors.server";
import { STATIC_PAGE } from "~/lib/hydration";
import { getDb } from "~/server/db/client.server";
import { messageReply } from "~/server/failure-reply.server";
import { clientIp } from "~/server/request.server";
import type { Route } from "./+types/confirm";

export const handle = STATIC_PAGE;

export function meta() {
  return [{ title: "Confirm your email" }, { name: "robots", content: "noindex" }];
}

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token") ?? "";

/** The link emailed after a comment; GET only asks, so a mail scanner following the link confirms nothing. */
export function loader({ request }: Route.LoaderArgs) {
  return { token: tokenOf(request) };
}

/** The page holds a live token: no shared cache keeps it. */
export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function action({ request }: Route.ActionArgs) {
  return messageReply(async () => {
    const email = await confirmCommentEmail(getDb(), tokenOf(request), clientIp(request));
    return `Thank you: ${email} is confirmed. The site's owner can now publish your comments without waiting for moderation.`;
  });
}

export default function ConfirmCommentEmail({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <EmailLinkPage
      title="Confirm your email"
      result={actionData}
      action={`/comments/confirm?token=${encodeURIComponent(loaderData.token)}`}
      submitLabel="Confirm your email"
    />
  );
}
