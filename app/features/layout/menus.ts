import { CATEGORY_LINKS, CONTACT_LINK, NAV_LINKS, NEWSLETTER_LABEL } from "./site-links";

/**
 * The header menu and the footer's columns, edited by the owner (/admin/menus). An item is a link the
 * owner wrote (a label and a site path or an https address) or a built-in item that follows the
 * settings: the newsletter link and the resume (shown while one is set), the service links (a menu in
 * the header, links in the footer) and the seven 7 Fs categories. No zod here: the header renders these.
 */
export type BuiltInKind = "newsletter" | "services" | "categories" | "resume";
/**
 * A page item names one of the owner's pages by id; `href` is filled in when the menus are read for
 * drawing (readMenus), and stays empty while the page is a draft or gone: the item is then not shown.
 */
export interface PageMenuItem {
  kind: "page";
  label: string;
  pageId: string;
  href?: string;
}
export type MenuItem = { kind: "link"; label: string; href: string } | { kind: BuiltInKind; label: string } | PageMenuItem;
export interface FooterColumn {
  title: string;
  items: MenuItem[];
}
export interface SiteMenus {
  header: MenuItem[];
  footer: FooterColumn[];
}

/** What each built-in item shows, for the editor. */
export const BUILT_IN_ITEMS: Readonly<Record<BuiltInKind, { label: string; description: string }>> = {
  newsletter: { label: NEWSLETTER_LABEL, description: "The newsletter address from Settings (hidden while none is set)" },
  services: { label: "Services", description: "The service links from Settings (a menu in the header; hidden while there are none)" },
  categories: { label: "7Fs", description: "The seven 7 Fs categories (a menu in the header)" },
  resume: { label: "Resume (PDF)", description: "The resume from Settings (hidden while none is set)" },
};

const link = ({ label, to }: { label: string; to: string }): MenuItem => ({ kind: "link", label, href: to });

/** Today's menus (SPEC §2 "Shared layout"); the footer links no internal design page. */
export const DEFAULT_MENUS: SiteMenus = {
  header: [
    ...NAV_LINKS.map(link),
    { kind: "newsletter", label: NEWSLETTER_LABEL },
    link(CONTACT_LINK),
    { kind: "services", label: "Services" },
    { kind: "categories", label: "7Fs" },
  ],
  footer: [
    { title: "Navigation", items: [...NAV_LINKS, CONTACT_LINK].map(link) },
    { title: "Services", items: [{ kind: "services", label: "Services" }] },
    {
      title: "Quick Links",
      items: [
        { kind: "newsletter", label: NEWSLETTER_LABEL },
        { kind: "link", label: "Book a Call", href: "/#reach-me" },
        { kind: "resume", label: "Resume (PDF)" },
      ],
    },
    { title: "7Fs Framework", items: [{ kind: "categories", label: "7Fs" }] },
  ],
};

/** An address of this site (a path) rather than another site's. */
export function isSitePath(href: string): boolean {
  return href.startsWith("/") && !href.startsWith("//");
}

/** The key of a header item for the bar's fitting (nav-fit-behavior.ts): built-ins by kind, links and pages by place. */
export function headerItemKey(item: MenuItem, index: number): string {
  return item.kind === "link" || item.kind === "page" ? `link-${index}` : item.kind;
}

/**
 * Which header items give way first when the bar is short of room: the links from the last but one
 * backwards, then the last link (the call to action, e.g. Contact Me), then the menus, the first item
 * (Home) last.
 */
export function navFitOrder(items: readonly MenuItem[]): string[] {
  const keyed = items.map((item, index) => ({
    key: headerItemKey(item, index),
    menu: item.kind === "services" || item.kind === "categories",
  }));
  const [first, ...rest] = keyed;
  if (!first) return [];
  const links = rest.filter((item) => !item.menu);
  const last = links.at(-1);
  return [
    ...links
      .slice(0, -1)
      .reverse()
      .map((item) => item.key),
    ...(last ? [last.key] : []),
    ...rest.filter((item) => item.menu).map((item) => item.key),
    first.key,
  ];
}

/** A menu's link as a page draws it: a route of this site, another site's page (a new tab), or a file. */
export interface ResolvedLink {
  label: string;
  href: string;
  type: "route" | "external" | "file";
}
export type ResolvedItem =
  { type: "link"; link: ResolvedLink } | { type: "menu"; kind: "services" | "categories"; label: string; links: ResolvedLink[] };

/** What the built-in items follow. */
export interface MenuSources {
  newsletterUrl: string;
  resumeUrl: string;
  serviceLinks: ReadonlyArray<{ label: string; url: string }>;
}

/** An item as drawn today; null while a built-in item has nothing to show (no newsletter, resume or service links). */
export function resolveMenuItem(item: MenuItem, sources: MenuSources): ResolvedItem | null {
  const one = (href: string, type: ResolvedLink["type"]): ResolvedItem => ({ type: "link", link: { label: item.label, href, type } });
  switch (item.kind) {
    case "link":
      return one(item.href, isSitePath(item.href) ? "route" : "external");
    case "page":
      return item.href ? one(item.href, "route") : null;
    case "newsletter":
      return sources.newsletterUrl ? one(sources.newsletterUrl, "external") : null;
    case "resume":
      return sources.resumeUrl ? one(sources.resumeUrl, "file") : null;
    case "services":
      return sources.serviceLinks.length === 0
        ? null
        : {
            type: "menu",
            kind: "services",
            label: item.label,
            links: sources.serviceLinks.map((service) => ({ label: service.label, href: service.url, type: "external" })),
          };
    case "categories":
      return {
        type: "menu",
        kind: "categories",
        label: item.label,
        links: CATEGORY_LINKS.map((category) => ({ label: category.label, href: category.to, type: "route" })),
      };
  }
}
