import { describe, expect, it } from "vitest";
import { parseMention } from "./mention-html.server";

describe("parseMention", () => {
  it("takes a Webmention author's h-card photo when it is a plain address", async () => {
    const page = (card: string) =>
      `<div class="h-entry"><a class="u-in-reply-to" href="https://blog.example/7fs/Fun/post">re</a>
       <span class="p-author h-card">${card}</span><p class="e-content">Nice.</p></div>`;
    const withPhoto = await parseMention(
      page('<img class="u-photo" src="/me.jpg" alt="Me"><a class="p-name u-url" href="/">Pat</a>'),
      "https://pat.example/notes/1",
      "https://blog.example/7fs/Fun/post",
    );
    expect(withPhoto).toMatchObject({ kind: "reply", authorName: "Pat", photoUrl: "https://pat.example/me.jpg" });
    const without = await parseMention(
      page('<a class="p-name u-url" href="/">Pat</a>'),
      "https://pat.example/notes/1",
      "https://blog.example/7fs/Fun/post",
    );
    expect(without.photoUrl).toBeNull();
  });
});
