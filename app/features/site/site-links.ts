import { CATEGORIES, categoryPath } from "~/lib/categories";

/** External addresses of the owner's other sites (SPEC §2 "Shared layout"); edit here to rebrand. */
export const EXTERNAL_LINKS = {
  newsletter: "https://sevenfs.substack.com",
  itConsulting: "https://consulting.example.com",
  itTraining: "https://training.example.com",
  scheduling: "https://calendly.com/portfolio-owner/30min",
  resume: "/resume.pdf",
} as const;

export const NAV_LINKS = [
  { to: "/", label: "Home" },
  { to: "/about", label: "About Me" },
  { to: "/recent-roles", label: "Recent Roles" },
  { to: "/projects", label: "My Projects" },
  { to: "/testimonials", label: "Testimonials" },
] as const;

export const NEWSLETTER_LINK = { href: EXTERNAL_LINKS.newsletter, label: "Newsletter" } as const;
export const CONTACT_LINK = { to: "/contact", label: "Contact Me" } as const;

export const SERVICE_LINKS = [
  { href: EXTERNAL_LINKS.itConsulting, label: "IT Consulting" },
  { href: EXTERNAL_LINKS.itTraining, label: "IT Training" },
] as const;

export const CATEGORY_LINKS = CATEGORIES.map((category) => ({ to: categoryPath(category), label: category }));

export const SOCIAL_LINKS = [
  { href: "https://www.linkedin.com/in/portfolio-owner", label: "LinkedIn" },
  { href: "https://github.com/portfolio-owner", label: "GitHub" },
  { href: "https://x.com/portfolio_owner", label: "X (Twitter)" },
] as const;
