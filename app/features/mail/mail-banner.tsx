import { Link } from "react-router";
import { MAIL_LAST_SEND_FAILED, MAIL_NOT_SET_UP, MAIL_SITE_ADDRESS_MISSING } from "./mail-settings-schema";

export interface MailBannerState {
  configured: boolean;
  lastFailureReason: string | null;
  /** The server's own address while no site address is configured (links in emails would start with it); null once one is. */
  linksWouldPointTo: string | null;
}

const BANNER_CLASS = "border-b border-amber-500/40 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-50";

/**
 * Across the admin while email is not set up, the latest send failed, or no site address is set (emails
 * would link to the server's own address); the link goes where it is fixed. `canFix`: the actor manages
 * the settings (Email and Settings are both the administrators').
 */
export function MailBanner({ mail, canFix }: { mail: MailBannerState; canFix: boolean }) {
  const link = (to: string, label: string) =>
    canFix ? (
      <>
        {" "}
        <Link to={to} className="font-medium underline underline-offset-4">
          {label}
        </Link>
      </>
    ) : null;
  const mailTrouble = !mail.configured || mail.lastFailureReason;
  return (
    <>
      {mailTrouble ? (
        <div role="status" data-testid="mail-banner" className={BANNER_CLASS}>
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
      ) : null}
      {mail.linksWouldPointTo ? (
        <div role="status" data-testid="site-address-banner" className={BANNER_CLASS}>
          <p>
            {MAIL_SITE_ADDRESS_MISSING} {mail.linksWouldPointTo}.{link("/admin/settings", "Set the site address")}
          </p>
        </div>
      ) : null}
    </>
  );
}
