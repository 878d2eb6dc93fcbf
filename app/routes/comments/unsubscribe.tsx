import { EmailLinkPage } from "~/components/email-link-page";
import { unsubscribeReplies } from "~/features/comments/comments.server";
import { STATIC_PAGE } from "~/lib/hydration";
import { getDb } from "~/server/db/client.server";
import { messageReply } from "~/server/failure-reply.server";
import type { Route } from "./+types/unsubscribe";

export const handle = STATIC_PAGE;

export function meta() {
  return [{ title: "Stop reply emails" }, { name: "robots", content: "noindex" }];
}

function linkOf(request: Request) {
  const params = new URL(request.url).searchParams;
  return { id: params.get("id") ?? "", token: params.get("token") ?? "" };
}

export function loader({ request }: Route.LoaderArgs) {
  return linkOf(request);
}

/** RFC 8058 one-click: a POST to the emailed URL stops reply emails, with no confirmation page. */
export async function action({ request }: Route.ActionArgs) {
  const { id, token } = linkOf(request);
  return messageReply(async () => {
    await unsubscribeReplies(getDb(), id, token);
    return "You will get no more emails about replies to your comments.";
  });
}

export default function UnsubscribeReplies({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <EmailLinkPage
      title="Stop reply emails"
      result={actionData}
      action={`/comments/unsubscribe?id=${encodeURIComponent(loaderData.id)}&token=${encodeURIComponent(loaderData.token)}`}
      submitLabel="Stop reply emails"
    />
  );
}
