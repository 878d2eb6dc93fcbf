import { redirect } from "react-router";
import { pendingSecondFactor } from "~/features/auth/auth.server";
import {
  authFailure,
  cancelSecondFactor,
  passkeySecondFactor,
  passkeySignIn,
  passwordStep,
  secondFactor,
} from "~/features/auth/auth-actions.server";
import { AuthForms } from "~/features/auth/auth-forms";
import { getSessionUser } from "~/features/auth/session.server";
import { TwoFactorStep } from "~/features/auth/two-factor-step";
import { getVerificationConfig } from "~/features/verification/verification.server";
import { canEdit } from "~/lib/permissions";
import { seoContext, seoMeta } from "~/lib/seo";
import { getDb } from "~/server/db/client.server";
import { readForm } from "~/server/form.server";
import type { Route } from "./+types/auth";

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: "Admin Login",
    description: "Sign in to manage the site.",
    path: "/auth",
    noindex: true,
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  // SPEC §6: an existing session on /auth goes to /admin — unless the admin area would only refuse them.
  const sessionUser = await getSessionUser(request);
  if (sessionUser) throw redirect(canEdit(sessionUser) ? "/admin" : "/");
  // A right password waiting for its second factor: this page asks for the code.
  return { verification: getVerificationConfig(), twoFactor: await pendingSecondFactor(getDb(), request) };
}

export async function action({ request }: Route.ActionArgs) {
  let form: FormData;
  try {
    form = await readForm(request);
  } catch (error) {
    return authFailure("login", error);
  }
  const intent = form.get("intent");
  // The second step has no verification widget: the password step had one, and the pending sign-in is its proof.
  if (intent === "2fa") return secondFactor(request, form);
  if (intent === "2fa-passkey") return passkeySecondFactor(request, form);
  if (intent === "passkey") return passkeySignIn(request, form);
  if (intent === "2fa-cancel") return cancelSecondFactor(request);
  return passwordStep(request, form, intent === "forgot" || intent === "update" ? intent : "login");
}

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.twoFactor) return <TwoFactorStep {...loaderData.twoFactor} />;
  return <AuthForms verification={loaderData.verification} actionData={actionData} />;
}
