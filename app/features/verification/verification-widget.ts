import { VERIFICATION_RETRY_MS, type VerificationConfig } from "./verification";

declare global {
  interface Window {
    turnstile?: {
      render: (el: HTMLElement, options: Record<string, unknown>) => string;
      reset: (id?: string) => void;
      remove: (id: string) => void;
    };
  }
}

/** The test id of the widget's container (tests click its checkbox). */
export const HUMAN_VERIFICATION_TEST_ID = "human-verification";

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

function isStateChange(event: Event): event is CustomEvent<{ state: string; payload?: string }> {
  return event instanceof CustomEvent && typeof event.detail === "object" && event.detail !== null && "state" in event.detail;
}

/** Self-hosted ALTCHA proof of work; its code (a web component) is loaded with the first widget. */
function mountAltcha(container: HTMLElement, challengeUrl: string, onChange: (token: string | null) => void): () => void {
  const widget = document.createElement("altcha-widget");
  widget.setAttribute("challengeurl", challengeUrl);
  widget.setAttribute("hidefooter", "");
  // The logo is an aria-hidden yet focusable link (axe: aria-hidden-focus).
  widget.setAttribute("hidelogo", "");
  // The widget's own hidden input is named altcha; ours carries the token under the form's name.
  widget.setAttribute("name", "altcha");
  widget.style.setProperty("--altcha-max-width", "100%");
  const handler = (event: Event) => {
    if (!isStateChange(event)) return;
    const { state, payload } = event.detail;
    if (state === "verified" && payload) onChange(payload);
    else if (state === "expired" || state === "error" || state === "unverified") onChange(null);
  };
  widget.addEventListener("statechange", handler);
  container.prepend(widget);
  void import("altcha");
  return () => widget.removeEventListener("statechange", handler);
}

/** Cloudflare Turnstile, when configured: its script is loaded with the first widget. */
function mountTurnstile(container: HTMLElement, siteKey: string, onChange: (token: string | null) => void): () => void {
  const slot = document.createElement("div");
  container.prepend(slot);
  let widgetId: string | undefined;
  let cancelled = false;
  loadTurnstile()
    .then(() => {
      if (cancelled || !window.turnstile) return;
      widgetId = window.turnstile.render(slot, {
        sitekey: siteKey,
        "retry-interval": VERIFICATION_RETRY_MS,
        callback: (token: string) => onChange(token),
        "expired-callback": () => onChange(null),
        "error-callback": () => onChange(null),
      });
    })
    .catch(() => onChange(null));
  return () => {
    cancelled = true;
    if (widgetId && window.turnstile) window.turnstile.remove(widgetId);
  };
}

/**
 * The human-verification widget inside `container`, with a hidden field `fieldName` carrying its
 * token (plain form posts send it). `onToken` hears the token once verified and null when it
 * expires or fails. The server checks the token (verification.server.ts); this only obtains it.
 * Used by the React forms (human-verification.tsx) and by pages without React (app/enhance).
 * Returns what removes it.
 */
export function mountVerification(
  container: HTMLElement,
  config: VerificationConfig,
  onToken: (token: string | null) => void,
  fieldName = "verificationToken",
): () => void {
  const field = Object.assign(document.createElement("input"), { type: "hidden", name: fieldName, value: "" });
  container.append(field);
  const update = (token: string | null) => {
    field.value = token ?? "";
    onToken(token);
  };
  const unmount =
    config.provider === "altcha" ? mountAltcha(container, config.challengeUrl, update) : mountTurnstile(container, config.siteKey, update);
  update(null);
  return () => {
    unmount();
    container.replaceChildren();
  };
}

/** The active verifier as attributes of a form drawn on the server, for the pages without React. */
export function verificationAttributes(config: VerificationConfig): Record<string, string> {
  return {
    "data-verification-provider": config.provider,
    "data-verification-key": config.provider === "altcha" ? config.challengeUrl : config.siteKey,
  };
}

/** The verifier verificationAttributes wrote on `element`, if any. */
export function verificationConfigOf(element: HTMLElement): VerificationConfig | null {
  const { verificationProvider: provider, verificationKey: key } = element.dataset;
  if (!key) return null;
  if (provider === "altcha") return { provider, challengeUrl: key };
  if (provider === "turnstile") return { provider, siteKey: key };
  return null;
}
