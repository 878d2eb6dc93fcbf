import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router";

/**
 * SPEC §2: on any page, a URL fragment with type=recovery (a password-reset link) leads to /auth with
 * the fragment kept, where the Update Password form picks it up.
 */
export function RecoveryRedirect() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (pathname === "/auth") return;
    const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
    if (params.get("type") === "recovery") void navigate(`/auth${window.location.hash}`, { replace: true });
  }, [pathname, navigate]);
  return null;
}
