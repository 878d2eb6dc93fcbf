import { Link } from "react-router";
import { MAIL_LAST_SEND_FAILED, MAIL_NOT_SET_UP } from "./mail-settings-schema";

export interface MailBannerState {
  configured: boolean;
  lastFailureReason: string | null;
}

/** Across the admin while email is not set up or the latest send failed; the link goes where it is fixed. */
export function MailBanner({ mail, canFix }: { mail: MailBannerState; canFix: boolean }) {
  if (mail.configured && !mail.lastFailureReason) return null;
  const link = (to: string, label: string) =>
    canFix ? (
      <>
        {" "}
        <Link to={to} className="font-medium underline underline-offset-4">
          {label}
        </Link>
      </>
    ) : null;
  return (
    <div
      role="status"
      data-testid="mail-banner"
      className="border-b border-amber-500/40 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-50"
    >
      {!mail.configured ? (
        <p>
          {MAIL_NOT_SET_UP}.{link("/admin/email", "Set up email")}
        </p>
      ) : (
        <p>
          {MAIL_LAST_SEND_FAILED}: {mail.lastFailureReason}
          {link("/admin/mail-log", "Open the mail log")}
        </p>
      )}
    </div>
  );
}
