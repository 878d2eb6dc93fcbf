import { z } from "zod";
import { CATEGORY_DESCRIPTIONS, type Category } from "~/lib/categories";
import { unknownPlaceholders } from "~/lib/placeholders";

/**
 * The public pages' fixed sentences, each editable by the owner (/admin/about) with the spec's text as its
 * default. Only the owner's changes are stored: a field reset to its default, or saved with the default's
 * text, is removed from the stored record, so a later change of a default reaches every site that kept it.
 */
export const SITE_COPY_DEFAULTS = {
  homeEyebrow: "Product · Project · Program · Apps",
  homeFeaturedSubtitle: "The latest from the blog, the newsletter and my projects.",
  sevenFsEyebrow: "The 7 Fs Framework",
  sevenFsHeading: "Faith, Finance, Fitness, Fun, Friends, Family, Figurehead",
  sevenFsText:
    "Seven areas of a balanced life, and the blog where I write about each of them: what works, what does not, and what I am still learning.",
  reachMeHeading: "Reach Me",
  reachMeBookingText: "Book a free 30-minute call at a time that suits you.",
  reachMeContactText: "Send me a message and we will find a time to talk.",
  contactHeading: "Let's Connect",
  contactBlurb: "Have a product to shape, a project to steer or an application to build? Send me a message.",
  contactResponseTime: "Response time: 24-48 hours on business days",
  contactDescription: "Send me a message about product, project or application work. I answer within 24-48 hours on business days.",
  contactThankYouTitle: "Thank you, {name}!",
  contactThankYouText: "Your message has been sent. I'll get back to you within 24-48 hours on business days.",
  projectsWebHeading: "Web Development Projects",
  projectsOtherHeading: "Other Projects",
  recentRolesSubtitle: "Where I have led products, projects and teams recently.",
  categoryFaithDescription: CATEGORY_DESCRIPTIONS.Faith,
  categoryFinanceDescription: CATEGORY_DESCRIPTIONS.Finance,
  categoryFitnessDescription: CATEGORY_DESCRIPTIONS.Fitness,
  categoryFunDescription: CATEGORY_DESCRIPTIONS.Fun,
  categoryFriendsDescription: CATEGORY_DESCRIPTIONS.Friends,
  categoryFamilyDescription: CATEGORY_DESCRIPTIONS.Family,
  categoryFigureheadDescription: CATEGORY_DESCRIPTIONS.Figurehead,
  notFoundText: "Oops! Page not found",
  footerCopyright: "© {year} {site}. All rights reserved.",
} satisfies Record<string, string> & Record<`category${Category}Description`, string>;

export type SiteCopyKey = keyof typeof SITE_COPY_DEFAULTS;
export type SiteCopy = Record<SiteCopyKey, string>;

/** The field holding a category's description (the seven names stay fixed: they are addresses). */
export function categoryDescriptionKey(category: Category): `category${Category}Description` {
  return `category${category}Description`;
}

/** The texts the layout shows on every page (the root loader's), out of all the texts. */
export function layoutCopyOf(copy: SiteCopy) {
  return { notFoundText: copy.notFoundText, footerCopyright: copy.footerCopyright };
}
export type LayoutCopy = ReturnType<typeof layoutCopyOf>;

export const SITE_COPY_SAVED = "Page texts saved";

/** The form's hidden intent that tells the page texts apart from the About lists on /admin/about. */
export const SITE_COPY_INTENT = "site-copy";
/** The name of a field's "Reset to default" button; its value is the field's key. */
export const SITE_COPY_RESET = "reset";

interface SiteCopyField {
  label: string;
  max: number;
  /** A paragraph (a textarea) rather than a line. */
  paragraph?: boolean;
  /** The placeholders the text may use, filled in on the page, and what each stands for. */
  placeholders?: Readonly<Record<string, string>>;
}

/** The form's fields grouped by the page they appear on, in page order. */
export const SITE_COPY_FIELDS: ReadonlyArray<{ page: string; fields: ReadonlyArray<readonly [SiteCopyKey, SiteCopyField]> }> = [
  {
    page: "Home",
    fields: [
      ["homeEyebrow", { label: "Hero eyebrow", max: 80 }],
      ["homeFeaturedSubtitle", { label: "Featured Work subtitle", max: 200 }],
      ["sevenFsEyebrow", { label: "7 Fs band: eyebrow", max: 80 }],
      ["sevenFsHeading", { label: "7 Fs band: heading", max: 120 }],
      ["sevenFsText", { label: "7 Fs band: text", max: 400, paragraph: true }],
      ["reachMeHeading", { label: "Reach Me heading", max: 80 }],
      ["reachMeBookingText", { label: "Reach Me text (booking page)", max: 200 }],
      ["reachMeContactText", { label: "Reach Me text (no booking page)", max: 200 }],
    ],
  },
  {
    page: "Contact",
    fields: [
      ["contactHeading", { label: "Heading", max: 80 }],
      ["contactBlurb", { label: "Blurb", max: 400, paragraph: true }],
      ["contactResponseTime", { label: "Response time", max: 120 }],
      ["contactDescription", { label: "Description for search engines and shares", max: 200, paragraph: true }],
      [
        "contactThankYouTitle",
        { label: "Thank-you title", max: 120, placeholders: { name: "the first word of the name the visitor entered" } },
      ],
      ["contactThankYouText", { label: "Thank-you text", max: 400, paragraph: true }],
    ],
  },
  {
    page: "Projects",
    fields: [
      ["projectsWebHeading", { label: "Web projects heading", max: 80 }],
      ["projectsOtherHeading", { label: "Other projects heading", max: 80 }],
    ],
  },
  {
    page: "Recent Roles",
    fields: [["recentRolesSubtitle", { label: "Subtitle", max: 200 }]],
  },
  {
    page: "7 Fs categories",
    fields: [
      ["categoryFaithDescription", { label: "Faith: description", max: 200 }],
      ["categoryFinanceDescription", { label: "Finance: description", max: 200 }],
      ["categoryFitnessDescription", { label: "Fitness: description", max: 200 }],
      ["categoryFunDescription", { label: "Fun: description", max: 200 }],
      ["categoryFriendsDescription", { label: "Friends: description", max: 200 }],
      ["categoryFamilyDescription", { label: "Family: description", max: 200 }],
      ["categoryFigureheadDescription", { label: "Figurehead: description", max: 200 }],
    ],
  },
  {
    page: "Not-found page",
    fields: [["notFoundText", { label: "Text below the 404 heading", max: 120 }]],
  },
  {
    page: "Footer",
    fields: [
      [
        "footerCopyright",
        { label: "Copyright line", max: 160, placeholders: { year: "the current year", site: "the site name from Settings" } },
      ],
    ],
  },
];

const FIELD_BY_KEY = new Map(SITE_COPY_FIELDS.flatMap((group) => group.fields));

function fieldOf(key: SiteCopyKey): SiteCopyField {
  const field = FIELD_BY_KEY.get(key);
  if (!field) throw new Error(`site copy: no field ${key}`);
  return field;
}

export function isSiteCopyKey(value: unknown): value is SiteCopyKey {
  return typeof value === "string" && Object.hasOwn(SITE_COPY_DEFAULTS, value);
}

const KEYS = Object.keys(SITE_COPY_DEFAULTS) as SiteCopyKey[];

/**
 * The form's input: every field, trimmed and bounded, a blank one required (a sentence the page needs;
 * "Reset to default" brings the spec's text back).
 */
export const siteCopyFormSchema = z.object(
  Object.fromEntries(
    KEYS.map((key) => {
      const { label, max, placeholders = {} } = fieldOf(key);
      const known = Object.keys(placeholders);
      return [
        key,
        z
          .string({ error: `${label} is required` })
          .trim()
          .min(1, `${label} is required (use "Reset to default" for the original text)`)
          .max(max, `${label} must be at most ${max} characters`)
          .refine((text) => unknownPlaceholders(text, known).length === 0, {
            message: known.length
              ? `${label} may use only ${known.map((name) => `{${name}}`).join(" and ")} in braces`
              : `${label} has no placeholders: remove the braces`,
          }),
      ];
    }),
  ) as Record<SiteCopyKey, z.ZodString>,
);

/** What is stored: the owner's changes only; an unknown or damaged key is dropped when read. */
export const storedSiteCopySchema = z.record(z.string(), z.unknown());

/** The owner's changes over the defaults. */
export function withDefaults(overrides: Partial<SiteCopy>): SiteCopy {
  return { ...SITE_COPY_DEFAULTS, ...overrides };
}

/** The changes worth storing: every field whose text differs from its default. */
export function overridesOf(copy: SiteCopy): Partial<SiteCopy> {
  return Object.fromEntries(KEYS.filter((key) => copy[key] !== SITE_COPY_DEFAULTS[key]).map((key) => [key, copy[key]]));
}

/** The stored record's valid overrides (a key no longer known, or a text now too long, is dropped). */
export function parseStoredOverrides(json: unknown): Partial<SiteCopy> {
  const stored = storedSiteCopySchema.safeParse(json);
  if (!stored.success) return {};
  const out: Partial<SiteCopy> = {};
  for (const [key, value] of Object.entries(stored.data)) {
    if (!isSiteCopyKey(key) || typeof value !== "string") continue;
    const text = value.trim();
    if (text && text.length <= fieldOf(key).max) out[key] = text;
  }
  return out;
}
