import { z } from "zod";
import { jsonField } from "~/lib/forms";

/**
 * Passkeys (WebAuthn; docs/decisions/0035-passkeys.md): the forms' rules, shared by the browser
 * and the server functions.
 */
export const PASSKEY_NAME_LABEL = "Passkey name";
export const PASSKEY_NAME_MAX = 60;
export const PASSKEY_FAILED = "The passkey could not be used. Please try again.";
export const PASSKEY_CANCELLED = "No passkey was used. Try again, or sign in another way.";

/** Why a browser asks for WebAuthn options: add a passkey, sign in without a password, or prove the second factor. */
export const PASSKEY_PURPOSES = ["register", "sign-in", "second-factor"] as const;
export type PasskeyPurpose = (typeof PASSKEY_PURPOSES)[number];
export const passkeyPurposeSchema = z.object({
  purpose: z.enum(PASSKEY_PURPOSES, { error: "Unknown passkey request." }),
});

export const passkeyNameSchema = z.object({
  name: z
    .string({ error: "Name the passkey, e.g. the device it is on." })
    .trim()
    .min(1, "Name the passkey, e.g. the device it is on.")
    .max(PASSKEY_NAME_MAX, `At most ${PASSKEY_NAME_MAX} characters.`),
});

const base64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, PASSKEY_FAILED);

/** What @simplewebauthn/browser's startRegistration/startAuthentication returns; extension outputs are not used, so dropped. */
const credentialBase = {
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal("public-key"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: z
    .object({})
    .optional()
    .transform(() => ({})),
};

export const registrationResponseSchema = z.object(
  {
    ...credentialBase,
    response: z.object({
      clientDataJSON: base64url,
      attestationObject: base64url,
      authenticatorData: base64url.optional(),
      transports: z.array(z.string().max(32)).max(10).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: base64url.optional(),
    }),
  },
  { error: PASSKEY_FAILED },
);

export const authenticationResponseSchema = z.object(
  {
    ...credentialBase,
    response: z.object({
      clientDataJSON: base64url,
      authenticatorData: base64url,
      signature: base64url,
      userHandle: base64url.optional(),
    }),
  },
  { error: PASSKEY_FAILED },
);

/** The hidden field the browser fills with the authenticator's answer (JSON). */
export const passkeyAddSchema = passkeyNameSchema.extend({
  credential: jsonField(registrationResponseSchema, PASSKEY_FAILED),
});

export const passkeyAssertionSchema = z.object({
  credential: jsonField(authenticationResponseSchema, PASSKEY_FAILED),
});

export const passkeyIdSchema = z.object({
  passkeyId: z.string({ error: "Unknown passkey." }).min(1, "Unknown passkey.").max(1024, "Unknown passkey."),
});
