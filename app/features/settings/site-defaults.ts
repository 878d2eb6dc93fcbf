import type { SiteSettings } from "./settings-schema";

/** The name of a site nobody has named yet (no demo content, settings never saved). */
export const NEUTRAL_SITE_NAME = "Portfolio";

/**
 * The demo identity (SPEC §2 "Shared layout"), the settings' defaults until the owner saves
 * /admin/settings. Feed and contact addresses come from the environment (settings.server.ts).
 */
export const DEMO_SITE_SETTINGS: SiteSettings = {
  siteName: "7 Fs Portfolio",
  siteUrl: "",
  ownerName: "",
  headline: "Product Manager, Project Manager & Application Developer",
  tagline: "I turn ideas into shipped products: clear roadmaps, calm delivery and working software.",
  bio: "For more than a decade I have helped organisations turn messy problems into products people use — first as a systems project consultant in healthcare, then as a technical product manager for an enterprise SaaS platform, and today through my own consulting and training businesses. I write code too, which keeps my plans honest.",
  portraitUrl: "",
  logoUrl: "",
  faviconUrl: "",
  logoMark: null,
  icons: null,
  socialImageUrl: "",
  contactEmail: "hello@example.com",
  resumeUrl: "/resume.pdf",
  socialLinks: [
    { url: "https://www.linkedin.com/in/portfolio-owner", label: "LinkedIn" },
    { url: "https://github.com/portfolio-owner", label: "GitHub" },
    { url: "https://x.com/portfolio_owner", label: "X (Twitter)" },
  ],
  serviceLinks: [
    { url: "https://consulting.example.com", label: "IT Consulting" },
    { url: "https://training.example.com", label: "IT Training" },
  ],
  newsletterUrl: "https://sevenfs.substack.com",
  bookingMode: "built-in",
  schedulingUrl: "https://calendly.com/portfolio-owner/30min",
  substackUrl: "",
  tspBlogUrl: "",
  tspKbUrl: "",
  accentColor: "",
  fontPairing: "system",
};
