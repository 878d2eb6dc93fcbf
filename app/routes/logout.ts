import { redirect } from "react-router";
import { LOGGED_OUT, LOGOUT_FAILED } from "~/features/auth/auth-messages";
import { destroySession } from "~/features/auth/session.server";
import { getDb } from "~/server/db/client.server";
import { logger } from "~/server/logger.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/logout";

/** Signing out is a POST (a link or prefetch must never end a session); GET just goes home. */
export function loader() {
  return redirect("/");
}

export async function action({ request }: Route.ActionArgs) {
  try {
    const setCookie = await destroySession(request, getDb());
    return await redirectWithToast("/", { ...LOGGED_OUT, type: "success" }, { headers: { "Set-Cookie": setCookie } });
  } catch (error) {
    logger.error({ err: error }, "logout failed");
    return redirectWithToast("/", { ...LOGOUT_FAILED, type: "error" });
  }
}
