import { afterEach, describe, expect, it, vi } from "vitest";

describe("zod-csp", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it("turns zod's eval probe off in the browser, through the configuration zod itself reads", async () => {
    vi.stubGlobal("document", {});
    await import("./zod-csp");
    const { z } = await import("zod");
    expect(z.config().jitless).toBe(true);
  });
});
