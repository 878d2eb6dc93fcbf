/** True when a URL fragment carries type=recovery (a password-recovery link). */
export function isRecoveryFragment(hash: string): boolean {
  return new URLSearchParams(hash.replace(/^#/, "")).get("type") === "recovery";
}

/**
 * SPEC §2: on any path but /auth, a recovery fragment sends the visitor to /auth with the fragment
 * kept. Fragments never reach the server, so this runs in the browser (app/enhance, every page);
 * recovery links arrive from emails, so a page load is where they land.
 */
export function redirectRecoveryFragment(): void {
  if (window.location.pathname !== "/auth" && isRecoveryFragment(window.location.hash)) {
    window.location.replace(`/auth${window.location.hash}`);
  }
}
