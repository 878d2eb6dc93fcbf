import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ShareCard } from "./share-card.server";

const stored = new Map<string, Buffer>();
const puts: string[] = [];
let draws = 0;

vi.mock("~/server/storage.server", () => ({
  getStorage: () => ({
    get: async (key: string) => {
      const body = stored.get(key);
      return body ? { body, contentType: "image/png" } : null;
    },
    put: async (key: string, body: Buffer) => {
      puts.push(key);
      stored.set(key, body);
    },
  }),
}));

vi.mock("./share-card.server", async (importOriginal) => {
  const original = await importOriginal<typeof import("./share-card.server")>();
  return {
    ...original,
    renderShareCard: async (card: ShareCard) => {
      draws++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (card.title === "broken") throw new Error("drawing failed");
      return Buffer.from(`png of ${card.title}`);
    },
  };
});

const { categoryShareCard, postShareCard, shareImageOf, shareImagePng } = await import("./share-images.server");

const SITE = { siteName: "Site", accentColor: "", fontPairing: "system" } as const;
const card = (title: string): ShareCard => ({ title, eyebrow: "Fun", ...SITE, date: null });

describe("shareImagePng", () => {
  beforeEach(() => {
    stored.clear();
    puts.length = 0;
    draws = 0;
  });

  it("draws a missing card once for concurrent requests, stores it, then serves the stored copy", async () => {
    const results = await Promise.all([shareImagePng(card("A")), shareImagePng(card("A")), shareImagePng(card("A"))]);
    expect(results.map(String)).toEqual(["png of A", "png of A", "png of A"]);
    expect(draws).toBe(1);
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatch(/^share-images\/[a-f0-9]{24}\.png$/);
    await shareImagePng(card("A"));
    expect(draws).toBe(1);
  });

  it("draws different cards one after the other, each once", async () => {
    await Promise.all([shareImagePng(card("A")), shareImagePng(card("B")), shareImagePng(card("A"))]);
    expect(draws).toBe(2);
    expect(new Set(puts).size).toBe(2);
  });

  it("a failed drawing is not remembered and does not stop the next ones", async () => {
    await expect(shareImagePng(card("broken"))).rejects.toThrow("drawing failed");
    await expect(shareImagePng(card("D"))).resolves.toEqual(Buffer.from("png of D"));
    await expect(shareImagePng(card("broken"))).rejects.toThrow("drawing failed");
    expect(draws).toBe(3);
    expect(puts).toHaveLength(1);
  });
});

describe("card URLs", () => {
  it("names the subject and the card's hash; the post card shows its category and date", () => {
    const post = postShareCard({ title: "T", category: "Faith", publishedAt: new Date("2026-03-04T12:00:00Z") }, SITE);
    expect(post).toEqual({ title: "T", eyebrow: "Faith", ...SITE, date: "March 4, 2026" });
    const image = shareImageOf({ kind: "post", id: "5b0a3c55-2f5e-4b7a-9d6c-0d3e8b6f1a22" }, post);
    expect(image).toMatchObject({ width: 1200, height: 630, type: "image/png", alt: "T · Faith · Site · March 4, 2026" });
    expect(image.url).toMatch(/^\/share-images\/post\/5b0a3c55-2f5e-4b7a-9d6c-0d3e8b6f1a22\/[a-f0-9]{24}\.png$/);
    const category = shareImageOf({ kind: "category", category: "Fun" }, categoryShareCard("Fun", SITE));
    expect(category.url).toMatch(/^\/share-images\/category\/Fun\/[a-f0-9]{24}\.png$/);
    expect(category.alt).toBe("Fun · 7 Fs Framework · Site");
  });
});
