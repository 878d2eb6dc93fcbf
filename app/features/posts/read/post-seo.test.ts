import { describe, expect, it } from "vitest";
import { blogPostingJsonLd } from "./post-seo";

const post = {
  title: "Budgets that last",
  slug: "budgets-that-last",
  category: "Finance" as const,
  excerpt: null,
  content: "Word ".repeat(100),
  publishedAt: new Date("2024-01-02T03:04:05Z"),
  updatedAt: new Date("2024-02-03T04:05:06Z"),
};

describe("blogPostingJsonLd", () => {
  it("describes the post with absolute addresses", () => {
    const ld = blogPostingJsonLd("https://site.example", post, "/uploads/blog-images/u/1.webp", "7 Fs Portfolio");
    expect(ld).toEqual({
      "@context": "https://schema.org",
      "@type": "BlogPosting",
      headline: "Budgets that last",
      description: expect.stringMatching(/^Word Word .*\.\.\.$/),
      datePublished: "2024-01-02T03:04:05.000Z",
      dateModified: "2024-02-03T04:05:06.000Z",
      articleSection: "Finance",
      articleBody: "Word ".repeat(100),
      url: "https://site.example/7fs/Finance/budgets-that-last",
      mainEntityOfPage: { "@type": "WebPage", "@id": "https://site.example/7fs/Finance/budgets-that-last" },
      author: { "@type": "Organization", name: "7 Fs Portfolio", url: "https://site.example" },
      publisher: { "@type": "Organization", name: "7 Fs Portfolio", url: "https://site.example" },
      image: "https://site.example/uploads/blog-images/u/1.webp",
    });
    expect(ld.description.length).toBeLessThanOrEqual(300);
  });

  it("leaves the image out when the post has none to show, and prefers the excerpt", () => {
    const ld = blogPostingJsonLd("https://site.example", { ...post, excerpt: "Short and sweet." }, null, "7 Fs Portfolio");
    expect(ld).not.toHaveProperty("image");
    expect(ld.description).toBe("Short and sweet.");
  });
});
