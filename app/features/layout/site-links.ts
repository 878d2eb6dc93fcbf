import { CATEGORIES, categoryPath } from "~/lib/categories";

/** The public navigation (SPEC §2 "Shared layout"): header, mobile menu and footer show these. */
export const NAV_LINKS = [
  { to: "/", label: "Home" },
  { to: "/about", label: "About Me" },
  { to: "/recent-roles", label: "Recent Roles" },
  { to: "/projects", label: "My Projects" },
  { to: "/testimonials", label: "Testimonials" },
] as const;

export const NEWSLETTER_LABEL = "Newsletter";
export const CONTACT_LINK = { to: "/contact", label: "Contact Me" } as const;

export const CATEGORY_LINKS = CATEGORIES.map((category) => ({ to: categoryPath(category), label: category }));
