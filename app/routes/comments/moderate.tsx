import { data } from "react-router";
import { Button } from "~/components/ui/button";
import { moderateBySignedLink } from "~/features/comments/comments.server";
import { STATIC_PAGE } from "~/lib/hydration";
import { getDb } from "~/server/db/client.server";
import { errorAnswer } from "~/server/errors.server";
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
  try {
    await moderateBySignedLink(getDb(), id, decision, token);
    return { ok: true, message: decision === "approve" ? "Comment approved." : "Comment marked as spam." };
  } catch (error) {
    const { status, message } = errorAnswer(error);
    return data({ ok: false, message }, { status });
  }
}

export default function ModerateComment({ loaderData, actionData }: Route.ComponentProps) {
  const { id, decision, token } = loaderData;
  return (
    <section className="mx-auto max-w-2xl px-4 py-16">
      <h1 className="text-3xl font-bold">Moderate a comment</h1>
      {actionData ? (
        <p role={actionData.ok ? "status" : "alert"} className="mt-4">
          {actionData.message}
        </p>
      ) : (
        <form
          method="post"
          action={`/comments/moderate?id=${encodeURIComponent(id)}&decision=${decision}&token=${encodeURIComponent(token)}`}
          className="mt-6"
        >
          <Button type="submit">{decision === "approve" ? "Approve comment" : "Mark as spam"}</Button>
        </form>
      )}
    </section>
  );
}
