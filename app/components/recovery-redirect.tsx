import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router";

/** True when a URL fragment carries type=recovery (a password-recovery link). */
export function isRecoveryFragment(hash: string): boolean {
  return new URLSearchParams(hash.replace(/^#/, "")).get("type") === "recovery";
}

/**
 * SPEC §2: on any path but /auth, a recovery fragment sends the visitor to /auth with the fragment
 * kept. Fragments never reach the server, so this runs in the browser.
 */
export function RecoveryRedirect() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const hash = window.location.hash;
    if (location.pathname !== "/auth" && isRecoveryFragment(hash)) {
      void navigate({ pathname: "/auth", hash }, { replace: true });
    }
  }, [location.pathname, location.hash, navigate]);
  return null;
}
