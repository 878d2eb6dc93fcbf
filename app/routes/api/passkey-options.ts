import { startPasskeyRegistration } from "~/features/account/passkeys-account.server";
import { passkeySignInOptions } from "~/features/auth/auth.server";
import { passkeyPurposeSchema } from "~/features/auth/passkey-schema";
import { getSessionUser } from "~/features/auth/session.server";
import { getDb } from "~/server/db/client.server";
import { parseOrThrow } from "~/server/errors.server";
import { apiFailure } from "~/server/failure-reply.server";
import { readForm } from "~/server/form.server";
import type { Route } from "./+types/passkey-options";

/**
 * POST /api/passkeys/options — form field `purpose` (register | sign-in | second-factor). Answers the
 * WebAuthn options for the browser's authenticator; the challenge in them is stored, single use, 5 minutes.
 * Who may ask is decided by the domain functions (register: signed-in staff; second-factor: a pending sign-in).
 */
export async function action({ request }: Route.ActionArgs) {
  try {
    const db = getDb();
    const { purpose } = parseOrThrow(passkeyPurposeSchema, Object.fromEntries(await readForm(request)));
    const options =
      purpose === "register"
        ? await startPasskeyRegistration(db, await getSessionUser(request, db))
        : await passkeySignInOptions(db, purpose, request);
    return Response.json(options, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return apiFailure(error);
  }
}

// No loader: GET/HEAD and other methods are answered 405 (JSON, with Allow) by server/app.ts.
