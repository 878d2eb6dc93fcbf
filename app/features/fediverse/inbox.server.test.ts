import { describe, expect, it } from "vitest";
import { actorIconUrl } from "./inbox.server";

describe("actorIconUrl", () => {
  it("reads an actor's icon however ActivityStreams writes it", () => {
    const url = "https://social.example/avatars/a.png";
    expect(actorIconUrl({ type: "Image", mediaType: "image/png", url })).toBe(url);
    expect(
      actorIconUrl([
        { type: "Image", url },
        { type: "Image", url: "https://social.example/b.png" },
      ]),
    ).toBe(url);
    expect(actorIconUrl({ type: "Image", url: { type: "Link", href: url } })).toBe(url);
    expect(actorIconUrl({ type: "Image", url: [url] })).toBe(url);
    expect(actorIconUrl(url)).toBe(url);
    expect(actorIconUrl(undefined)).toBeNull();
    expect(actorIconUrl({ type: "Image" })).toBeNull();
    expect(actorIconUrl({ type: "Image", url: "file:///etc/passwd" })).toBeNull();
  });
});
