import { describe, expect, it } from "vitest";
import { detectMediaKind, isSafeImageUrl, vimeoEmbedUrl, youtubeEmbedUrl } from "./media";

describe("media URLs", () => {
  it("turns YouTube watch, shorts and youtu.be URLs into privacy-enhanced embeds", () => {
    const embed = "https://www.youtube.com/embed/dQw4w9WgXcQ";
    expect(youtubeEmbedUrl("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10")).toBe(embed);
    expect(youtubeEmbedUrl("https://m.youtube.com/watch?v=dQw4w9WgXcQ")).toBe(embed);
    expect(youtubeEmbedUrl("https://youtube.com/shorts/dQw4w9WgXcQ")).toBe(embed);
    expect(youtubeEmbedUrl("https://youtu.be/dQw4w9WgXcQ")).toBe(embed);
    expect(youtubeEmbedUrl("https://www.youtube.com/watch?v=%22onload%3Dalert(1)")).toBeNull();
    expect(youtubeEmbedUrl("javascript:alert(1)")).toBeNull();
    expect(youtubeEmbedUrl("https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ")).toBeNull();
  });

  it("turns Vimeo URLs into player URLs", () => {
    expect(vimeoEmbedUrl("https://vimeo.com/76979871")).toBe("https://player.vimeo.com/video/76979871");
    expect(vimeoEmbedUrl("https://player.vimeo.com/video/76979871")).toBe("https://player.vimeo.com/video/76979871");
    expect(vimeoEmbedUrl("https://vimeo.com/channels/x")).toBeNull();
  });

  it("recognises providers and video files", () => {
    expect(detectMediaKind("https://youtu.be/dQw4w9WgXcQ")).toBe("youtube");
    expect(detectMediaKind("https://vimeo.com/1")).toBe("vimeo");
    expect(detectMediaKind("https://cdn.example.com/a.webm")).toBe("video");
    expect(detectMediaKind("https://example.com/page")).toBeNull();
  });

  it("allows only http(s) or our /uploads paths for images", () => {
    expect(isSafeImageUrl("https://x.example/a.png")).toBe(true);
    expect(isSafeImageUrl("/uploads/blog-images/a/1-b.png")).toBe(true);
    // The demo posts' shipped placeholders are shown too.
    expect(isSafeImageUrl("/images/posts/faith-800.webp")).toBe(true);
    expect(isSafeImageUrl("/images/../etc/passwd.png")).toBe(false);
    expect(isSafeImageUrl("/images/posts/x.html")).toBe(false);
    expect(isSafeImageUrl("//evil.example/images/a.png")).toBe(false);
    expect(isSafeImageUrl("javascript:alert(1)")).toBe(false);
    expect(isSafeImageUrl("JaVaScRiPt:alert(1)")).toBe(false);
    expect(isSafeImageUrl("data:text/html,<script>")).toBe(false);
  });
});
