import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { avatarKeyOf, makeAvatar, remotePhotoUrl, sniffImageType } from "./comment-avatars.server";

const png = () => sharp({ create: { width: 40, height: 80, channels: 4, background: "#336699" } });

describe("remote authors' pictures", () => {
  it("recognizes the accepted images by their first bytes, not their name or type", async () => {
    expect(sniffImageType(await png().png().toBuffer())).toBe("image/png");
    expect(sniffImageType(await png().jpeg().toBuffer())).toBe("image/jpeg");
    expect(sniffImageType(await png().webp().toBuffer())).toBe("image/webp");
    expect(sniffImageType(await png().gif().toBuffer())).toBe("image/gif");
    expect(sniffImageType(new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffImageType(await png().avif().toBuffer())).toBeNull();
    expect(sniffImageType(new Uint8Array([0x89]))).toBeNull();
  });

  it("makes a 96 px square WebP, and refuses bytes that do not match an accepted declared type", async () => {
    const made = await makeAvatar(await png().png().toBuffer(), "image/png; charset=binary");
    expect(await sharp(made).metadata()).toMatchObject({ format: "webp", width: 96, height: 96 });
    await expect(makeAvatar(await png().png().toBuffer(), "text/html")).rejects.toThrow(/not an accepted image/);
    await expect(makeAvatar(new TextEncoder().encode("<svg/>"), "image/png")).rejects.toThrow(/not an accepted image/);
    const truncated = (await png().png().toBuffer()).subarray(0, 40);
    await expect(makeAvatar(truncated, "image/png")).rejects.toThrow(/could not be decoded/);
  });

  it("keeps one stored name per address, and only http(s) addresses", () => {
    expect(avatarKeyOf("https://a.example/x.png")).toMatch(/^blog-images\/avatars\/[0-9a-f]{32}\.webp$/);
    expect(avatarKeyOf("https://a.example/x.png")).toBe(avatarKeyOf("https://a.example/x.png"));
    expect(avatarKeyOf("https://a.example/y.png")).not.toBe(avatarKeyOf("https://a.example/x.png"));
    expect(remotePhotoUrl("https://a.example/x.png")).toBe("https://a.example/x.png");
    for (const bad of [
      "data:image/png;base64,AAAA",
      "javascript:alert(1)",
      "/relative.png",
      42,
      null,
      `https://a.example/${"x".repeat(2000)}`,
    ])
      expect(remotePhotoUrl(bad)).toBeNull();
  });
});
