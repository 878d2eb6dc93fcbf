import { createElement, useEffect, useRef, useState } from "react";
import { VERIFICATION_RETRY_MS, type VerificationConfig } from "./verification";

interface Props {
  config: VerificationConfig;
  /** Called with the token once verified, and with null when it expires or fails. */
  onToken: (token: string | null) => void;
  /** Changing this value resets the widget (e.g. after a failed submit: tokens are single-use). */
  resetKey?: number;
  /** Name of the hidden form field that carries the token (for plain form posts). */
  fieldName?: string;
}

declare global {
  interface Window {
    turnstile?: {
      render: (el: HTMLElement, options: Record<string, unknown>) => string;
      reset: (id?: string) => void;
      remove: (id: string) => void;
    };
  }
}

/**
 * The human-verification widget: self-hosted ALTCHA proof of work by default, Cloudflare Turnstile
 * when configured. The server checks the token (verification.server.ts); this only obtains it.
 */
export function HumanVerification({ config, onToken, resetKey = 0, fieldName = "verificationToken" }: Props) {
  const [token, setToken] = useState<string | null>(null);
  const onTokenRef = useRef(onToken);
  onTokenRef.current = onToken;

  const update = (value: string | null) => {
    setToken(value);
    onTokenRef.current(value);
  };

  return (
    <div data-testid="human-verification">
      {config.provider === "altcha" ? (
        <AltchaWidget key={resetKey} challengeUrl={config.challengeUrl} onChange={update} />
      ) : (
        <TurnstileWidget key={resetKey} siteKey={config.siteKey} onChange={update} />
      )}
      <input type="hidden" name={fieldName} value={token ?? ""} />
    </div>
  );
}

function AltchaWidget({ challengeUrl, onChange }: { challengeUrl: string; onChange: (v: string | null) => void }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    let cancelled = false;
    const el = ref.current;
    const handler = (event: Event) => {
      const detail = (event as CustomEvent<{ state: string; payload?: string }>).detail;
      if (detail.state === "verified" && detail.payload) onChange(detail.payload);
      else if (detail.state === "expired" || detail.state === "error" || detail.state === "unverified") onChange(null);
    };
    void import("altcha").then(() => {
      if (cancelled || !el) return;
      el.addEventListener("statechange", handler);
    });
    onChange(null);
    return () => {
      cancelled = true;
      el?.removeEventListener("statechange", handler);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- mount once per reset key
  }, []);
  // The widget's own hidden input is named altcha; ours (above) carries the token under a stable name.
  return createElement("altcha-widget", {
    ref,
    challengeurl: challengeUrl,
    hidefooter: true,
    // The logo link is aria-hidden yet focusable (axe: aria-hidden-focus).
    hidelogo: true,
    name: "altcha",
    style: { "--altcha-max-width": "100%" },
  });
}

const TURNSTILE_SCRIPT = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";

function loadTurnstile(): Promise<void> {
  if (window.turnstile) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const existing = document.querySelector<HTMLScriptElement>(`script[src="${TURNSTILE_SCRIPT}"]`);
    const script = existing ?? Object.assign(document.createElement("script"), { src: TURNSTILE_SCRIPT, async: true });
    script.addEventListener("load", () => resolve());
    script.addEventListener("error", () => reject(new Error("Could not load the verification widget")));
    if (!existing) document.head.appendChild(script);
  });
}

function TurnstileWidget({ siteKey, onChange }: { siteKey: string; onChange: (v: string | null) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let widgetId: string | undefined;
    let cancelled = false;
    onChange(null);
    loadTurnstile()
      .then(() => {
        if (cancelled || !ref.current || !window.turnstile) return;
        widgetId = window.turnstile.render(ref.current, {
          sitekey: siteKey,
          "retry-interval": VERIFICATION_RETRY_MS,
          callback: (t: string) => onChange(t),
          "expired-callback": () => onChange(null),
          "error-callback": () => onChange(null),
        });
      })
      .catch(() => onChange(null));
    return () => {
      cancelled = true;
      if (widgetId && window.turnstile) window.turnstile.remove(widgetId);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- mount once per reset key
  }, [siteKey]);
  return <div ref={ref} />;
}
