import { EmailLinkPage } from "~/components/email-link-page";
import { moderateBySignedLink } from "~/features/comments/comments.server";
import { STATIC_PAGE } from "~/lib/hydration";
import { getDb } from "~/server/db/client.server";
import { messageReply } from "~/server/failure-reply.server";
import type { Route } from "./+types/moderate";

export const handle = STATIC_PAGE;

export function meta() {
  return [{ title: "Moderate a comment" }, { name: "robots", content: "noindex" }];
}

function linkOf(request: Request) {
  const params = new URL(request.url).searchParams;
  const decision = params.get("decision") === "spam" ? ("spam" as const) : ("approve" as const);
  return { id: params.get("id") ?? "", decision, token: params.get("token") ?? "" };
}

/** The owner's email links here; GET only asks, so a mail scanner following the link decides nothing. */
export function loader({ request }: Route.LoaderArgs) {
  return linkOf(request);
}

export async function action({ request }: Route.ActionArgs) {
  const { id, decision, token } = linkOf(request);
  return messageReply(async () => {
    await moderateBySignedLink(getDb(), id, decision, token);
    return decision === "approve" ? "Comment approved." : "Comment marked as spam.";
  });
}

export default function ModerateComment({ loaderData, actionData }: Route.ComponentProps) {
  const { id, decision, token } = loaderData;
  return (
    <EmailLinkPage
      title="Moderate a comment"
      result={actionData}
      action={`/comments/moderate?id=${encodeURIComponent(id)}&decision=${decision}&token=${encodeURIComponent(token)}`}
      submitLabel={decision === "approve" ? "Approve comment" : "Mark as spam"}
    />
  );
}
