import { Link, NavLink } from "react-router";

const NAV_LINKS = [
  { to: "/", label: "Home" },
  { to: "/about", label: "About Me" },
  { to: "/recent-roles", label: "Recent Roles" },
  { to: "/projects", label: "My Projects" },
  { to: "/testimonials", label: "Testimonials" },
  { to: "/contact", label: "Contact Me" },
] as const;

/** Fixed top bar (SPEC §2 "Shared layout"). Menus and sign-in state arrive with the public-site issue. */
export function SiteHeader() {
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b bg-background/95 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center gap-6 px-4">
        <Link to="/" className="font-semibold">
          Portfolio
        </Link>
        <ul className="hidden items-center gap-4 text-sm lg:flex">
          {NAV_LINKS.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end className={({ isActive }) => (isActive ? "font-medium text-primary" : "hover:text-primary")}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="ml-auto">
          <Link to="/auth" className="text-sm hover:text-primary">
            Login
          </Link>
        </div>
      </nav>
    </header>
  );
}
