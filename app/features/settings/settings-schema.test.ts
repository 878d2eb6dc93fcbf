import { describe, expect, it } from "vitest";
import { projectInputSchema } from "~/features/projects/project-schema";
import { siteSettingsFormSchema } from "./settings-schema";

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
