/** The site's fixed pages (SPEC §2), which tests walk before adding their own routes. */
export const FIXED_PAGES = ["/", "/about", "/recent-roles", "/projects", "/testimonials", "/hero-mockups", "/contact", "/auth"] as const;
