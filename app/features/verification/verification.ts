/** Shared by browser and server: which human-verification widget to show. */
export type VerificationConfig = { provider: "altcha"; challengeUrl: string } | { provider: "turnstile"; siteKey: string };

/** SPEC §5 / §8: shown when a form is submitted without a verification token. */
export const VERIFICATION_REQUIRED = {
  title: "Verification required",
  description: "Please complete the security verification.",
} as const;

/** SPEC §9: widget retry interval. */
export const VERIFICATION_RETRY_MS = 8000;
