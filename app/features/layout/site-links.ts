import { CATEGORIES, categoryPath } from "~/lib/categories";

/** The public navigation (SPEC §2 "Shared layout"): the default menus (menus.ts) start with these. */
export const NAV_LINKS = [
  { key: "home", to: "/", label: "Home" },
  { key: "about", to: "/about", label: "About Me" },
  { key: "recent-roles", to: "/recent-roles", label: "Recent Roles" },
  { key: "projects", to: "/projects", label: "My Projects" },
  { key: "testimonials", to: "/testimonials", label: "Testimonials" },
] as const;

export const NEWSLETTER_LABEL = "Newsletter";
export const CONTACT_LINK = { key: "contact", to: "/contact", label: "Contact Me" } as const;

export const CATEGORY_LINKS = CATEGORIES.map((category) => ({ to: categoryPath(category), label: category }));
