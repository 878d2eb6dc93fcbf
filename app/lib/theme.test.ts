import { afterEach, describe, expect, it, vi } from "vitest";
import { DARK_CLASS, resolveTheme, THEME_SCRIPT, THEME_STORAGE_KEY } from "./theme";

describe("resolveTheme", () => {
  it("follows the system unless the reader chose", () => {
    expect(resolveTheme(null, true)).toBe("dark");
    expect(resolveTheme(null, false)).toBe("light");
    expect(resolveTheme("light", true)).toBe("light");
    expect(resolveTheme("dark", false)).toBe("dark");
    expect(resolveTheme("purple", true)).toBe("dark");
  });
});

describe("THEME_SCRIPT", () => {
  const classes = new Set<string>();
  const run = (stored: string | null, systemDark: boolean, storageThrows = false) => {
    classes.clear();
    const documentElement = { classList: { toggle: (name: string, on: boolean) => (on ? classes.add(name) : classes.delete(name)) } };
    vi.stubGlobal("document", { documentElement });
    vi.stubGlobal("window", { matchMedia: () => ({ matches: systemDark }) });
    vi.stubGlobal("localStorage", {
      getItem: (key: string) => {
        if (storageThrows) throw new Error("blocked");
        return key === THEME_STORAGE_KEY ? stored : null;
      },
    });
    new Function(THEME_SCRIPT)();
    return classes.has(DARK_CLASS);
  };
  afterEach(() => vi.unstubAllGlobals());

  it("agrees with resolveTheme for every case", () => {
    for (const stored of [null, "light", "dark", "other"]) {
      for (const systemDark of [true, false]) {
        expect(run(stored, systemDark), `${stored} ${systemDark}`).toBe(resolveTheme(stored, systemDark) === "dark");
      }
    }
  });

  it("falls back to the system when storage is blocked", () => {
    expect(run("light", true, true)).toBe(true);
  });
});
