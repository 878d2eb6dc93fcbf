import { describe, expect, it } from "vitest";
import { projectInputSchema } from "~/features/projects/project-schema";
import { ACCENT_INVALID, siteSettingsFormSchema, storedSiteSettingsSchema } from "./settings-schema";

describe("site-path fields", () => {
  it("refuse addresses a browser reads as another site (//host, /\\host) with the field's message", () => {
    for (const field of ["portraitUrl", "logoUrl", "faviconUrl", "socialImageUrl", "resumeUrl"] as const) {
      for (const value of ["//evil.example/p.png", "/\\evil.example/p.png"]) {
        const parsed = siteSettingsFormSchema.shape[field].safeParse(value);
        expect(parsed.success, `${field} ${value}`).toBe(false);
        expect(parsed.error?.issues[0]?.message).toMatch(/must be a site path starting with \//);
      }
      expect(siteSettingsFormSchema.shape[field].safeParse("/uploads/me.png").success).toBe(true);
    }
    expect(projectInputSchema.shape.imageUrl.safeParse("/\\evil.example/p.png").success).toBe(false);
    expect(projectInputSchema.shape.imageUrl.safeParse("/uploads/p.png").success).toBe(true);
  });
});

describe("accent colour", () => {
  const accent = siteSettingsFormSchema.shape.accentColor;
  it("keeps an empty value (the theme's colours) and stores a colour as #rrggbb", () => {
    expect(accent.parse("")).toBe("");
    expect(accent.parse(undefined)).toBe("");
    expect(accent.parse(" #B91C1C ")).toBe("#b91c1c");
  });

  it("refuses a low-contrast colour and says why, with the ratio measured", () => {
    const parsed = accent.safeParse("#7dd3fc");
    expect(parsed.error?.issues[0]?.message).toBe(
      "Accent colour #7dd3fc has a contrast of 1.6:1 against white; it needs 4.5:1. Choose a darker colour.",
    );
    expect(accent.safeParse("#2563eb").error?.issues[0]?.message).toBe(
      "Accent colour #2563eb has a contrast of 4.4:1 against the pale tint at the top of the home page (#e7effc); it needs 4.5:1. Choose a darker colour.",
    );
    expect(accent.safeParse("red; }").error?.issues[0]?.message).toBe(ACCENT_INVALID);
  });

  it("drops a stored colour that is not a plain #rrggbb instead of writing it into pages", () => {
    expect(storedSiteSettingsSchema.parse({ accentColor: "#000;}</style>", fontPairing: "comic" })).toMatchObject({
      accentColor: "",
      fontPairing: "system",
    });
  });
});
