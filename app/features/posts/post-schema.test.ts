import { describe, expect, it } from "vitest";
import { parseSubmission } from "~/lib/forms";
import { POST_MESSAGES, postFormSchema, postInputSchema } from "./post-schema";

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
      expect(messages({ ...valid, featuredImageUrl: ok })).toEqual([]);
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
      { mediaType: "image", mediaUrl: "/uploads/blog-images/u/1-a.png" },
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
    expect(messages({ ...valid, media: [{ mediaType: "image", mediaUrl: "/uploads/a.png", caption: "x".repeat(301) }] }).length).toBe(1);
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
});
