/**
 * The browser half of a passkey ceremony: options from /api/passkeys/options, then the authenticator.
 * @simplewebauthn/browser is imported here, on first use, so it is a chunk of its own that only /auth and
 * /admin/account ever load (never a public page's bundle).
 */

import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { PASSKEY_CANCELLED, PASSKEY_FAILED, type PasskeyPurpose } from "./passkey-schema";

/** A JSON object (not null, not an array). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isCreationOptions(value: unknown): value is PublicKeyCredentialCreationOptionsJSON {
  return isRecord(value) && typeof value.challenge === "string" && isRecord(value.rp) && isRecord(value.user);
}

function isRequestOptions(value: unknown): value is PublicKeyCredentialRequestOptionsJSON {
  return isRecord(value) && typeof value.challenge === "string" && !("user" in value);
}

const ALREADY_REGISTERED = "This passkey is already registered to your account.";

/** What a person reads when the authenticator gave no answer. */
function messageOf(error: unknown): string {
  if (error instanceof Error) {
    if ("code" in error && error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") return ALREADY_REGISTERED;
    if (error.name === "NotAllowedError" || error.name === "AbortError") return PASSKEY_CANCELLED;
    if (error.name === "PasskeyRefused") return error.message;
  }
  return PASSKEY_FAILED;
}

async function fetchOptions(purpose: PasskeyPurpose): Promise<unknown> {
  const response = await fetch("/api/passkeys/options", {
    method: "POST",
    headers: { Accept: "application/json" },
    body: new URLSearchParams({ purpose }),
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const refusal = new Error(isRecord(body) && typeof body.error === "string" ? body.error : PASSKEY_FAILED);
    refusal.name = "PasskeyRefused";
    throw refusal;
  }
  return body;
}

/** Runs the ceremony; resolves to the authenticator's answer as JSON (for the form's `credential` field), or to an error message. */
export async function runPasskeyCeremony(purpose: PasskeyPurpose): Promise<{ credential: string } | { error: string }> {
  try {
    const options = await fetchOptions(purpose);
    const { startAuthentication, startRegistration } = await import("@simplewebauthn/browser");
    if (purpose === "register") {
      if (!isCreationOptions(options)) return { error: PASSKEY_FAILED };
      return { credential: JSON.stringify(await startRegistration({ optionsJSON: options })) };
    }
    if (!isRequestOptions(options)) return { error: PASSKEY_FAILED };
    return { credential: JSON.stringify(await startAuthentication({ optionsJSON: options })) };
  } catch (error) {
    return { error: messageOf(error) };
  }
}
