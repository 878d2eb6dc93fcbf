import { describe, expect, it } from "vitest";
import { parseSubmission } from "~/lib/forms";
import { POST_MESSAGES, postFormSchema, postInputSchema } from "./post-schema";
import { imageName, markdownImages } from "./image-alt";
import { DEMO_POSTS } from "~/server/demo-content.server";

const valid = { title: "Hello World", content: "Body", category: "Faith", published: true };

function messages(input: unknown): string[] {
  const r = postInputSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

describe("post validation (SPEC §5)", () => {
  it("accepts a minimal post and normalises optional fields to null", () => {
    const r = postInputSchema.parse({ ...valid, excerpt: "  ", featuredImageUrl: "" });
    expect(r).toMatchObject({ title: "Hello World", excerpt: null, featuredImageUrl: null, media: [] });
  });

  it("requires a title and content", () => {
    expect(messages({ ...valid, title: "   " })).toContain(POST_MESSAGES.titleRequired);
    expect(messages({ ...valid, content: " \n " })).toContain(POST_MESSAGES.contentRequired);
  });

  it("refuses a title without letters or digits (no slug possible)", () => {
    expect(messages({ ...valid, title: "!!! --- ???" })).toEqual([POST_MESSAGES.titleNoSlug]);
    expect(messages({ ...valid, title: "🎉🎉" })).toEqual([POST_MESSAGES.titleNoSlug]);
  });

  it("limits lengths", () => {
    expect(messages({ ...valid, title: "a".repeat(201) })).toContain(POST_MESSAGES.titleTooLong);
    expect(messages({ ...valid, excerpt: "a".repeat(501) })).toContain(POST_MESSAGES.excerptTooLong);
    expect(messages({ ...valid, content: "a".repeat(100_001) })).toContain(POST_MESSAGES.contentTooLong);
  });

  it("accepts http(s) and /uploads featured images and refuses anything else", () => {
    for (const ok of ["https://example.com/a.jpg", "http://example.com/a.png", "/uploads/blog-images/u1/1-abc.jpg"]) {
      expect(messages({ ...valid, featuredImageUrl: ok, featuredImageAlt: "A photo" })).toEqual([]);
    }
    for (const bad of [
      "javascript:alert(1)",
      "data:image/png;base64,AAAA",
      "not a url",
      "/etc/passwd",
      "//evil.example/x.png",
      "/uploads/../secret",
    ]) {
      expect(messages({ ...valid, featuredImageUrl: bad })).toContain(POST_MESSAGES.featuredImageUrl);
    }
  });

  it("requires one of the seven categories", () => {
    expect(messages({ ...valid, category: "Friendship" }).length).toBeGreaterThan(0);
    expect(messages({ ...valid, category: "Food" }).length).toBeGreaterThan(0);
  });

  it("validates media items by provider", () => {
    const ok = [
      { mediaType: "youtube", mediaUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" },
      { mediaType: "youtube", mediaUrl: "https://youtu.be/dQw4w9WgXcQ", caption: "short link" },
      { mediaType: "youtube", mediaUrl: "https://youtube.com/shorts/dQw4w9WgXcQ" },
      { mediaType: "vimeo", mediaUrl: "https://vimeo.com/76979871" },
      { mediaType: "video", mediaUrl: "https://cdn.example.com/clip.mp4" },
      { mediaType: "image", mediaUrl: "/uploads/blog-images/u/1-a.png", alt: "A photo" },
    ];
    expect(messages({ ...valid, media: ok })).toEqual([]);
    const bad = [
      { mediaType: "youtube", mediaUrl: "http://www.youtube.com/watch?v=dQw4w9WgXcQ" },
      { mediaType: "youtube", mediaUrl: "https://evil.example/watch?v=dQw4w9WgXcQ" },
      { mediaType: "vimeo", mediaUrl: "https://vimeo.com/not-a-number" },
      { mediaType: "video", mediaUrl: "javascript:alert(1)//.mp4" },
      { mediaType: "image", mediaUrl: "javascript:alert(1)" },
      { mediaType: "audio", mediaUrl: "https://example.com/a.mp3" },
    ];
    for (const item of bad) expect(messages({ ...valid, media: [item] }).length, JSON.stringify(item)).toBeGreaterThan(0);
    expect(
      messages({ ...valid, media: [{ mediaType: "image", mediaUrl: "/uploads/a.png", alt: "A", caption: "x".repeat(301) }] }).length,
    ).toBe(1);
    expect(messages({ ...valid, media: Array.from({ length: 51 }, () => ok[0]) })).toContain(POST_MESSAGES.tooManyMedia);
  });

  it("reads the browser form: switch 'on', media as JSON, broken JSON refused", () => {
    const form = new FormData();
    form.set("title", "T");
    form.set("content", "C");
    form.set("published", "on");
    form.set("media", JSON.stringify([{ mediaType: "vimeo", mediaUrl: "https://vimeo.com/1" }]));
    const read = (f: FormData) => parseSubmission(f, postFormSchema);
    const parsed = read(form);
    if (parsed.status !== "success") throw new Error("expected a valid form");
    expect(parsed.value).toMatchObject({ published: true, media: [{ mediaType: "vimeo" }] });
    // What the form yields is what the domain accepts.
    expect(postInputSchema.parse({ ...parsed.value, category: "Fun" })).toMatchObject({ published: true, excerpt: null });
    form.set("media", "{not json");
    expect(read(form).status).toBe("error");
    form.delete("published");
    form.delete("media");
    const unticked = read(form);
    expect(unticked.status === "success" && unticked.value.published).toBe(false);
  });

  it("speaks the schema's messages for empty fields (no coercion to undefined)", () => {
    const result = parseSubmission(new FormData(), postFormSchema).reply();
    expect(result.error?.title).toEqual([POST_MESSAGES.titleRequired]);
    expect(result.error?.content).toEqual([POST_MESSAGES.contentRequired]);
  });

  describe("alt text to publish", () => {
    const photo = "/uploads/blog-images/u1/1700000000000-abc.png";
    const refusal = (name: string) => `Add alt text to the image "${name}" before publishing`;
    const issues = (input: unknown) => {
      const r = postInputSchema.safeParse(input);
      return r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    };

    it("refuses a published post whose featured image has no alt text, naming the file", () => {
      expect(issues({ ...valid, featuredImageUrl: "https://cdn.example.com/pics/photo.png?w=800" })).toEqual([
        { path: "featuredImageAlt", message: refusal("photo.png") },
      ]);
      expect(issues({ ...valid, featuredImageUrl: photo, featuredImageAlt: "   " })).toEqual([
        { path: "featuredImageAlt", message: refusal("1700000000000-abc.png") },
      ]);
      expect(issues({ ...valid, featuredImageUrl: photo, featuredImageAlt: "Sunrise over the lake" })).toEqual([]);
    });

    it("refuses a gallery image without alt text, but not videos or a gallery copy of the featured image", () => {
      const media = [
        { mediaType: "youtube", mediaUrl: "https://youtu.be/dQw4w9WgXcQ" },
        { mediaType: "image", mediaUrl: "/uploads/blog-images/u1/2-a.jpg", alt: "First" },
        { mediaType: "image", mediaUrl: "/uploads/blog-images/u1/3-b.jpg" },
      ];
      expect(issues({ ...valid, media })).toEqual([{ path: "media.2.alt", message: refusal("3-b.jpg") }]);
      expect(
        issues({ ...valid, featuredImageUrl: photo, featuredImageAlt: "F", media: [{ mediaType: "image", mediaUrl: photo }] }),
      ).toEqual([]);
    });

    it("refuses a Markdown image without alt text in Content; images in code are text", () => {
      expect(issues({ ...valid, content: "Intro\n\n![](/uploads/blog-images/u1/inline%20shot.png)\n" })).toEqual([
        { path: "content", message: refusal("inline shot.png") },
      ]);
      expect(issues({ ...valid, content: "![A chart](/uploads/x/1-c.png)\n\n`![](a.png)`\n\n```\n![](b.png)\n```" })).toEqual([]);
    });

    it("names the first offending image: featured, then gallery, then Content", () => {
      const input = {
        ...valid,
        featuredImageUrl: "https://example.com/featured.jpg",
        media: [{ mediaType: "image", mediaUrl: "/uploads/g/1-gallery.jpg" }],
        content: "![](/uploads/c/1-inline.png)",
      };
      expect(issues(input).map((i) => i.message)).toEqual([refusal("featured.jpg")]);
      expect(issues({ ...input, featuredImageAlt: "F" }).map((i) => i.message)).toEqual([refusal("1-gallery.jpg")]);
    });

    it("lets drafts be saved without alt text; scheduling needs it like publishing", () => {
      const draft = { ...valid, published: false, featuredImageUrl: photo, content: "![](/uploads/c/1-x.png)" };
      expect(issues(draft)).toEqual([]);
      expect(issues({ ...draft, publishAt: new Date(Date.now() + 60_000) })).toHaveLength(1);
    });

    it("applies the same rule to the browser form (published switch or 'Schedule')", () => {
      const form = new FormData();
      form.set("title", "T");
      form.set("content", "![](/uploads/c/1-x.png)");
      expect(parseSubmission(form, postFormSchema).status).toBe("success");
      form.set("published", "on");
      expect(parseSubmission(form, postFormSchema).reply().error?.content).toEqual([refusal("1-x.png")]);
      form.delete("published");
      form.set("schedule", "on");
      form.set("publishAt", "2099-01-01T08:00");
      expect(parseSubmission(form, postFormSchema).reply().error?.content).toEqual([refusal("1-x.png")]);
      form.set("content", "![A cat](/uploads/c/1-x.png)");
      expect(parseSubmission(form, postFormSchema).status).toBe("success");
    });

    it("lets every demo post publish: the seeded images have alt text", () => {
      for (const post of DEMO_POSTS) {
        expect(issues({ ...post, published: true }), post.slug).toEqual([]);
        expect(post.featuredImageUrl ? post.featuredImageAlt : "none", post.slug).toBeTruthy();
      }
    });

    it("reads Markdown images and file names", () => {
      expect(markdownImages('a ![x \\] y](/u/1.png "t") b ![](<https://e.com/a b.png>)')).toEqual([
        { alt: "x ] y", url: "/u/1.png" },
        { alt: "", url: "https://e.com/a b.png" },
      ]);
      expect(imageName("/uploads/blog-images/u/1-a.png")).toBe("1-a.png");
      expect(imageName("https://e.com/x/%E2%9C%93.png#frag")).toBe("✓.png");
    });
  });
});
