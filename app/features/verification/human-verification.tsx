import { useEffect, useRef } from "react";
import type { VerificationConfig } from "./verification";
import { HUMAN_VERIFICATION_TEST_ID, mountVerification } from "./verification-widget";

interface Props {
  config: VerificationConfig;
  /** Called with the token once verified, and with null when it expires or fails. */
  onToken: (token: string | null) => void;
  /** Changing this value resets the widget (e.g. after a failed submit: tokens are single-use). */
  resetKey?: number;
  /** Name of the hidden form field that carries the token (for plain form posts). */
  fieldName?: string;
}

/**
 * The human-verification widget of the React forms: self-hosted ALTCHA proof of work by default,
 * Cloudflare Turnstile when configured (verification-widget.ts draws it, here and on pages without React).
 */
export function HumanVerification({ config, onToken, resetKey = 0, fieldName = "verificationToken" }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const onTokenRef = useRef(onToken);
  onTokenRef.current = onToken;
  const key = config.provider === "altcha" ? config.challengeUrl : config.siteKey;
  useEffect(() => {
    if (!ref.current) return;
    return mountVerification(ref.current, config, (token) => onTokenRef.current(token), fieldName);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new widget per reset key or verifier
  }, [resetKey, config.provider, key, fieldName]);
  return <div ref={ref} data-testid={HUMAN_VERIFICATION_TEST_ID} />;
}
