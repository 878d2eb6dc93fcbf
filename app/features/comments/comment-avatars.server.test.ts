import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { avatarKeyOf, makeAvatar, remotePhotoUrl } from "./comment-avatars.server";

const png = () => sharp({ create: { width: 40, height: 80, channels: 4, background: "#336699" } });

describe("remote authors' pictures", () => {
  it("takes the image types uploads take, read from the bytes, when the declared type agrees", async () => {
    for (const [bytes, type] of [
      [await png().jpeg().toBuffer(), "image/jpeg"],
      [await png().webp().toBuffer(), "image/webp"],
      [await png().gif().toBuffer(), "image/gif"],
      [await png().avif().toBuffer(), "image/avif"],
    ] as const)
      expect(await sharp(await makeAvatar(bytes, type)).metadata()).toMatchObject({ format: "webp", width: 96 });
    // A PNG that says it is a JPEG, and an SVG that says it is a PNG, are refused.
    await expect(makeAvatar(await png().png().toBuffer(), "image/jpeg")).rejects.toThrow(/not an accepted image/);
    const svg = new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>");
    await expect(makeAvatar(svg, "image/png")).rejects.toThrow(/not an accepted image/);
  });

  it("makes a 96 px square WebP, and refuses bytes that do not match an accepted declared type", async () => {
    const made = await makeAvatar(await png().png().toBuffer(), "image/png; charset=binary");
    expect(await sharp(made).metadata()).toMatchObject({ format: "webp", width: 96, height: 96 });
    await expect(makeAvatar(await png().png().toBuffer(), "text/html")).rejects.toThrow(/not an accepted image/);
    await expect(makeAvatar(new TextEncoder().encode("<svg/>"), "image/png")).rejects.toThrow(/not an accepted image/);
    // The header is read (a PNG), the pixels are not all there.
    const whole = await png().png().toBuffer();
    const truncated = whole.subarray(0, whole.length - 40);
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
