import { describe, expect, it } from "vitest";
import { CATEGORIES, CATEGORY_DESCRIPTIONS } from "~/lib/categories";
import {
  categoryDescriptionKey,
  overridesOf,
  parseStoredOverrides,
  siteCopyFormSchema,
  SITE_COPY_DEFAULTS,
  SITE_COPY_FIELDS,
  withDefaults,
} from "./site-copy";

describe("page texts (site copy)", () => {
  it("has one form field for every default, each once", () => {
    const keys = SITE_COPY_FIELDS.flatMap((group) => group.fields.map(([key]) => key));
    expect([...keys].sort()).toEqual(Object.keys(SITE_COPY_DEFAULTS).sort());
  });

  it("accepts the defaults as they are and keeps no override for them", () => {
    const parsed = siteCopyFormSchema.parse({ ...SITE_COPY_DEFAULTS });
    expect(overridesOf(parsed)).toEqual({});
  });

  it("trims, refuses a blank or too long text with the field's name, and stores only what changed", () => {
    const changed = siteCopyFormSchema.parse({ ...SITE_COPY_DEFAULTS, contactHeading: "  Say hello  " });
    expect(overridesOf(changed)).toEqual({ contactHeading: "Say hello" });
    const blank = siteCopyFormSchema.safeParse({ ...SITE_COPY_DEFAULTS, homeEyebrow: "   " });
    expect(blank.error?.issues[0]?.message).toBe('Hero eyebrow is required (use "Reset to default" for the original text)');
    const long = siteCopyFormSchema.safeParse({ ...SITE_COPY_DEFAULTS, projectsWebHeading: "x".repeat(81) });
    expect(long.error?.issues[0]?.message).toBe("Web projects heading must be at most 80 characters");
  });

  it("reads a stored record leniently: unknown keys, non-strings, blanks and overlong texts fall back to the defaults", () => {
    const overrides = parseStoredOverrides({
      contactHeading: "Say hello",
      gone: "an old field",
      homeEyebrow: 3,
      sevenFsEyebrow: "  ",
      reachMeHeading: "x".repeat(81),
    });
    expect(overrides).toEqual({ contactHeading: "Say hello" });
    expect(parseStoredOverrides("not an object")).toEqual({});
    expect(withDefaults(overrides)).toEqual({ ...SITE_COPY_DEFAULTS, contactHeading: "Say hello" });
  });

  it("has a description field for each of the seven categories, defaulting to the spec's", () => {
    for (const category of CATEGORIES) expect(SITE_COPY_DEFAULTS[categoryDescriptionKey(category)]).toBe(CATEGORY_DESCRIPTIONS[category]);
  });

  it("accepts a field's own placeholders and refuses others, or any in a field without placeholders", () => {
    expect(siteCopyFormSchema.safeParse({ ...SITE_COPY_DEFAULTS, contactThankYouTitle: "Cheers {name}" }).success).toBe(true);
    const typo = siteCopyFormSchema.safeParse({ ...SITE_COPY_DEFAULTS, contactThankYouTitle: "Cheers {nmae}" });
    expect(typo.error?.issues[0]?.message).toBe("Thank-you title may use only {name} in braces");
    const none = siteCopyFormSchema.safeParse({ ...SITE_COPY_DEFAULTS, notFoundText: "Lost {name}" });
    expect(none.error?.issues[0]?.message).toBe("Text below the 404 heading has no placeholders: remove the braces");
  });
});
