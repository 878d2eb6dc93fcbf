import { describe, expect, it } from "vitest";
import { brandHead } from "./brand.server";

describe("brandHead", () => {
  it("adds nothing for the theme's colours and the system fonts", () => {
    expect(brandHead({ accentColor: "", fontPairing: "system" })).toBeNull();
  });

  it("sets the accent's tokens for both themes, the dark ones more specific than app.css's .dark", () => {
    const head = brandHead({ accentColor: "#b91c1c", fontPairing: "system" });
    expect(head?.css).toMatch(/^:root\{--primary:#b91c1c;--primary-foreground:#fafafa;--ring:#[0-9a-f]{6};--accent:#[0-9a-f]{6}\}/);
    expect(head?.css).toMatch(/:root\.dark\{--primary:#[0-9a-f]{6};/);
    expect(head?.fontPreloads).toEqual([]);
  });

  it("declares and preloads only the chosen pairing's three Latin WOFF2 files, shown with swap", () => {
    const head = brandHead({ accentColor: "", fontPairing: "classic" });
    expect(head?.fontPreloads).toHaveLength(3);
    expect(head?.fontPreloads.every((url) => /(lora|open-sans)-latin-(400|700)-normal.*\.woff2$/.test(url))).toBe(true);
    expect(head?.css.match(/@font-face/g)).toHaveLength(3);
    expect(head?.css.match(/font-display:swap/g)).toHaveLength(3);
    expect(head?.css).toContain('--font-heading:"Lora", ui-serif');
    expect(head?.css).toContain('--font-body:"Open Sans", ui-sans-serif');
    expect(head?.css).not.toMatch(/Inter|Playfair|Space Grotesk|Source Sans/);
  });
});
