import { data } from "react-router";
import { Button } from "~/components/ui/button";
import { unsubscribeReplies } from "~/features/comments/comments.server";
import { STATIC_PAGE } from "~/lib/hydration";
import { getDb } from "~/server/db/client.server";
import { errorAnswer } from "~/server/errors.server";
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
  try {
    await unsubscribeReplies(getDb(), id, token);
    return { ok: true, message: "You will get no more emails about replies to your comments." };
  } catch (error) {
    const { status, message } = errorAnswer(error);
    return data({ ok: false, message }, { status });
  }
}

export default function UnsubscribeReplies({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-2xl px-4 py-16">
      <h1 className="text-3xl font-bold">Stop reply emails</h1>
      {actionData ? (
        <p role={actionData.ok ? "status" : "alert"} className="mt-4">
          {actionData.message}
        </p>
      ) : (
        <form
          method="post"
          action={`/comments/unsubscribe?id=${encodeURIComponent(loaderData.id)}&token=${encodeURIComponent(loaderData.token)}`}
          className="mt-6"
        >
          <Button type="submit">Stop reply emails</Button>
        </form>
      )}
    </section>
  );
}
