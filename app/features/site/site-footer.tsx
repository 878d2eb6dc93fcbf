import { Link } from "react-router";
import { CATEGORY_LINKS, CONTACT_LINK, EXTERNAL_LINKS, NAV_LINKS, NEWSLETTER_LINK, SERVICE_LINKS, SOCIAL_LINKS } from "./site-links";
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

/** Footer (SPEC §2): navigation, services, quick links, 7Fs links, copyright, Admin (canEdit), social links. */
export function SiteFooter() {
  const user = useOptionalUser();
  return (
    <footer className="border-t bg-muted/40">
      <nav aria-label="Footer" className="mx-auto grid max-w-7xl gap-8 px-4 py-10 text-sm text-muted-foreground sm:grid-cols-2 lg:grid-cols-4">
        <Group title="Navigation">
          {[...NAV_LINKS, CONTACT_LINK].map((link) => (
            <li key={link.to}>
              <Link to={link.to} className={linkClass}>
                {link.label}
              </Link>
            </li>
          ))}
        </Group>
        <Group title="Services">
          {SERVICE_LINKS.map((service) => (
            <li key={service.href}>
              <a href={service.href} target="_blank" rel="noopener noreferrer" className={linkClass}>
                {service.label}
              </a>
            </li>
          ))}
        </Group>
        <Group title="Quick Links">
          <li>
            <a href={NEWSLETTER_LINK.href} target="_blank" rel="noopener noreferrer" className={linkClass}>
              {NEWSLETTER_LINK.label}
            </a>
          </li>
          <li>
            <Link to="/#reach-me" className={linkClass}>
              Book a Call
            </Link>
          </li>
          <li>
            <a href={EXTERNAL_LINKS.resume} className={linkClass}>
              Resume (PDF)
            </a>
          </li>
          <li>
            <Link to="/hero-mockups" className={linkClass}>
              Hero Mockups
            </Link>
          </li>
          {user?.canEdit ? (
            <li>
              <Link to="/admin" className={linkClass}>
                Admin
              </Link>
            </li>
          ) : null}
        </Group>
        <Group title="7Fs Framework">
          {CATEGORY_LINKS.map((category) => (
            <li key={category.to}>
              <Link to={category.to} className={linkClass}>
                {category.label}
              </Link>
            </li>
          ))}
        </Group>
      </nav>
      <div className="border-t">
        <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-4 px-4 py-6 text-sm text-muted-foreground sm:flex-row">
          <p>© {new Date().getFullYear()} Portfolio. All rights reserved.</p>
          <ul aria-label="Social links" className="flex gap-4">
            {SOCIAL_LINKS.map((social) => (
              <li key={social.href}>
                <a href={social.href} target="_blank" rel="noopener noreferrer me" className={linkClass}>
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
