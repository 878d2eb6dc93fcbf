import { expect, it } from "vitest";
import { knownImagesFromUploads } from "./markdown-images.server";
import { renderMarkdown } from "./markdown.server";

it("turns upload rows into the renderer's lookup, so a post's upload gets its srcset", async () => {
  const images = knownImagesFromUploads([
    {
      storageKey: "blog-images/u1/1700000000000-abc.png",
      width: 800,
      height: 600,
      variants: [
        { width: 320, key: "blog-images/u1/1700000000000-abc-320w.webp" },
        { width: 640, key: "blog-images/u1/1700000000000-abc-640w.webp" },
      ],
      alt: "",
    },
  ]);
  expect([...images.keys()]).toEqual(["/uploads/blog-images/u1/1700000000000-abc.png"]);
  const { html } = await renderMarkdown("![Desk](/uploads/blog-images/u1/1700000000000-abc.png)", {
    siteUrl: "https://site.example",
    images,
  });
  expect(html).toContain(
    'width="800" height="600" srcset="/uploads/blog-images/u1/1700000000000-abc-320w.webp 320w, /uploads/blog-images/u1/1700000000000-abc-640w.webp 640w, /uploads/blog-images/u1/1700000000000-abc.png 800w"',
  );
});

it("shows the alt text kept with the upload in the library instead of the one written in the post", async () => {
  const row = { storageKey: "blog-images/u1/1700000000000-abc.png", width: 800, height: 600, variants: [] };
  const source = "![Old words](/uploads/blog-images/u1/1700000000000-abc.png) ![Elsewhere](https://cdn.example/x.png)";
  const withAlt = await renderMarkdown(source, {
    siteUrl: "https://site.example",
    images: knownImagesFromUploads([{ ...row, alt: "A desk by the window" }]),
  });
  expect(withAlt.html).toContain('alt="A desk by the window"');
  expect(withAlt.html).not.toContain('alt="Old words"');
  expect(withAlt.html).toContain('alt="Elsewhere"');
  // While the library has no alt text, the one written in the post stays.
  const without = await renderMarkdown(source, {
    siteUrl: "https://site.example",
    images: knownImagesFromUploads([{ ...row, alt: "  " }]),
  });
  expect(without.html).toContain('alt="Old words"');
});
