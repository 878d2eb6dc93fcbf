import { data } from "react-router";
import type { AdminFormContext } from "~/features/admin/admin-form.server";
import { passkeyNameSchema } from "~/features/auth/passkey-schema";
import { totpConfirmSchema, twoFactorDisableSchema } from "~/features/auth/two-factor-schema";
import type { FormFailure } from "~/lib/forms";
import { invalidSubmission } from "~/server/failure-reply.server";
import { redirectWithToast } from "~/server/toast.server";
import { emailChangeSchema, passwordChangeSchema } from "./account-schema";
import { requestEmailChange } from "./account-email.server";
import { changeOwnPassword, revokeOtherSessions, revokeOwnSession } from "./account.server";
import { addPasskey, removePasskey } from "./passkeys-account.server";
import { cancelTotpSetup, confirmTotpSetup, disableTwoFactor, regenerateRecoveryCodes, startTotpSetup } from "./two-factor-account.server";

export type AccountActionData = { ok: true; message: string; recoveryCodes?: string[] } | FormFailure;

const ok = (message: string, recoveryCodes?: string[]) =>
  data<AccountActionData>(recoveryCodes ? { ok: true, message, recoveryCodes } : { ok: true, message });

/** The account page's forms, by `intent` (run by the admin form pipeline, handleAdminForm). */
export function accountIntents() {
  return {
    password: async ({ actor, db, form, parse }) => {
      const parsed = parse(passwordChangeSchema);
      if (parsed.status !== "success") return invalidSubmission(parsed);
      await changeOwnPassword(db, actor, form);
      return redirectWithToast("/admin/account", {
        title: "Password changed",
        description: "Your other sessions have been signed out.",
        type: "success",
      });
    },
    email: async ({ actor, db, form, parse }) => {
      const parsed = parse(emailChangeSchema);
      if (parsed.status !== "success") return invalidSubmission(parsed);
      const outcome = await requestEmailChange(db, actor, form);
      return outcome.applied
        ? redirectWithToast("/admin/account", {
            title: "Sign-in email changed",
            description: `You now sign in as ${outcome.email}.`,
            type: "success",
          })
        : redirectWithToast("/admin/account", {
            title: "Check your inbox",
            description: `We sent a confirmation link to ${outcome.sentTo}. Your sign-in email changes when you open it.`,
            type: "success",
          });
    },
    revoke: async ({ actor, db, form }) => {
      const { current } = await revokeOwnSession(db, actor, form);
      if (current) return redirectWithToast("/auth", { title: "Signed out", type: "success" });
      return ok("Session signed out.");
    },
    "revoke-others": async ({ actor, db }) => {
      const n = await revokeOtherSessions(db, actor);
      return ok(n === 1 ? "1 other session signed out." : `${n} other sessions signed out.`);
    },
    "2fa-start": async ({ actor, db }) => {
      await startTotpSetup(db, actor);
      return ok("Scan the QR code, then enter the code your app shows.");
    },
    "2fa-cancel": async ({ actor, db }) => {
      await cancelTotpSetup(db, actor);
      return ok("Setup cancelled.");
    },
    "2fa-confirm": async ({ actor, db, form, parse }) => {
      const parsed = parse(totpConfirmSchema);
      if (parsed.status !== "success") return invalidSubmission(parsed);
      return ok("Two-factor authentication is on.", await confirmTotpSetup(db, actor, form));
    },
    "2fa-recovery-codes": async ({ actor, db, form, parse }) => {
      const parsed = parse(twoFactorDisableSchema);
      if (parsed.status !== "success") return invalidSubmission(parsed);
      return ok("New recovery codes created. The old ones no longer work.", await regenerateRecoveryCodes(db, actor, form));
    },
    "2fa-disable": async ({ actor, db, form, parse }) => {
      const parsed = parse(twoFactorDisableSchema);
      if (parsed.status !== "success") return invalidSubmission(parsed);
      await disableTwoFactor(db, actor, form);
      return ok("Two-factor authentication is off.");
    },
    "passkey-add": async ({ actor, db, form, parse }) => {
      const parsed = parse(passkeyNameSchema);
      if (parsed.status !== "success") return invalidSubmission(parsed);
      const { recoveryCodes } = await addPasskey(db, actor, form);
      return recoveryCodes
        ? ok(`Passkey "${parsed.value.name}" added. Keep the recovery codes below somewhere safe.`, recoveryCodes)
        : ok(`Passkey "${parsed.value.name}" added.`);
    },
    "passkey-remove": async ({ actor, db, form }) => {
      const name = await removePasskey(db, actor, form);
      return ok(`Passkey "${name}" removed.`);
    },
  } satisfies Record<string, (ctx: AdminFormContext) => Promise<unknown>>;
}
