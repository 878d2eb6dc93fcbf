import { Link, useLocation } from "react-router";
import { SubscribeOffer } from "~/features/subscriptions/subscribe-offer";
import { MenuLink } from "./menu-link";
import { resolveMenuItem } from "./menus";
import { useMenus } from "./use-menus";
import { useSite } from "../settings/use-site";
import { useLayoutCopy } from "~/features/pages/use-layout-copy";
import { fillPlaceholders } from "~/lib/placeholders";
import { useOptionalUser } from "~/lib/use-user";

const linkClass = "hover:text-primary hover:underline";

function Group({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <h2 className="text-sm font-semibold text-foreground">{title}</h2>
      <ul className="mt-3 space-y-2">{children}</ul>
    </div>
  );
}

/**
 * Pages without the footer's Subscribe form: those with a form of their own (blog pages show
 * Subscribe in the page; contact, sign-in and the subscription pages ask for an email already)
 * and the admin area.
 */
const OWN_FORM_PAGES = /^\/(7fs|admin|auth|contact|subscribe|unsubscribe)(\/|$)/;

/** Footer (SPEC §2): the owner's columns (navigation, services, quick links, 7Fs links by default), copyright, Admin (canEdit), social links. */
export function SiteFooter() {
  const user = useOptionalUser();
  const site = useSite();
  const { footerCopyright } = useLayoutCopy();
  const { footer } = useMenus();
  const { pathname } = useLocation();
  return (
    <footer className="border-t bg-muted/40">
      <nav
        aria-label="Footer"
        className="mx-auto grid max-w-7xl gap-8 px-4 py-10 text-sm text-muted-foreground sm:grid-cols-2 lg:grid-cols-4"
      >
        {footer.map((column, index) => {
          const links = column.items.flatMap((menuItem) => {
            const item = resolveMenuItem(menuItem, site);
            return !item ? [] : item.type === "link" ? [item.link] : item.links;
          });
          // A column with nothing to show (no service links yet) is left out.
          return links.length === 0 ? null : (
            <Group key={index} title={column.title}>
              {links.map((link, at) => (
                <li key={at}>
                  <MenuLink link={link} className={linkClass} />
                </li>
              ))}
            </Group>
          );
        })}
      </nav>
      {OWN_FORM_PAGES.test(pathname) ? null : (
        <div className="mx-auto max-w-7xl px-4 pb-10">
          <SubscribeOffer id="subscribe-footer" className="max-w-2xl" />
        </div>
      )}
      <div className="border-t">
        <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-4 px-4 py-6 text-sm text-muted-foreground sm:flex-row">
          <p>{fillPlaceholders(footerCopyright, { year: String(new Date().getFullYear()), site: site.siteName })}</p>
          {user?.canEdit ? (
            <Link to="/admin" className={linkClass}>
              Admin
            </Link>
          ) : null}
          <ul aria-label="Social links" className="flex gap-4">
            {site.socialLinks.map((social) => (
              <li key={social.url}>
                <a href={social.url} target="_blank" rel="noopener noreferrer me" className={linkClass}>
                  {social.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
