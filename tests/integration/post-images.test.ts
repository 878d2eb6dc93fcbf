import sharp from "sharp";
import { expect, it } from "vitest";
import { z } from "zod";
import { deletePostFilesJob } from "~/features/posts/write/post-files.server";
import { JobRunner } from "~/server/jobs/runner.server";
import { describeEachDatabase } from "../helpers/databases";
import { unique } from "../helpers/factories";
import { useSignedInServer } from "../helpers/test-server";

/** The page carries the action's answer as escaped JSON (backslashed quotes): compared unescaped. */
const visibleText = (html: string) => html.replace(/\\+"/g, '"').replace(/&quot;/g, '"');

/** Alt text (refusal, pages, social tags) and the clean-up of a deleted post's files, through the production server. */
describeEachDatabase("post images over HTTP (alt text, file clean-up)", (ctx) => {
  const server = useSignedInServer(ctx, "admin");

  const submit = server.postForm;

  async function uploadImage(name: string): Promise<string> {
    const png = await sharp({ create: { width: 900, height: 600, channels: 3, background: "#2266aa" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("files", new Blob([new Uint8Array(png)], { type: "image/png" }), name);
    const r = await server.fetch("/api/uploads", { method: "POST", headers: { origin: server.url, cookie: server.cookie }, body: form });
    expect(r.status).toBe(201);
    const { images } = z.object({ images: z.array(z.object({ url: z.string(), srcSet: z.string() })) }).parse(await r.json());
    const url = images[0]?.url;
    if (!url) throw new Error("no upload");
    return url;
  }

  async function createPost(fields: Record<string, string>): Promise<string> {
    const title = `Images ${unique()}`;
    const r = await submit("/7fs/Fun/new", { title, content: "Body.", published: "on", ...fields });
    expect(r.status).toBe(302);
    return r.headers.get("location") ?? "";
  }

  it("refuses to publish an image without alt text with a 400 naming it; a draft saves", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ featuredImageUrl: "https://cdn.example.com/pics/photo.png" }, "photo.png"],
      [{ media: JSON.stringify([{ mediaType: "image", mediaUrl: "/uploads/blog-images/u/1-gallery.jpg" }]) }, "1-gallery.jpg"],
      [{ content: "Look:\n\n![](/uploads/blog-images/u/2-inline.png)" }, "2-inline.png"],
    ];
    for (const [fields, name] of cases) {
      const refused = await submit("/7fs/Fun/new", { title: `Refused ${unique()}`, content: "Body.", published: "on", ...fields });
      expect(refused.status).toBe(400);
      expect(visibleText(await refused.text())).toContain(`Add alt text to the image "${name}" before publishing`);
      const scheduled = await submit("/7fs/Fun/new", {
        title: `Scheduled ${unique()}`,
        content: "Body.",
        schedule: "on",
        publishAt: "2099-01-01T08:00",
        ...fields,
      });
      expect(scheduled.status).toBe(400);
      const draft = await submit("/7fs/Fun/new", { title: `Draft ${unique()}`, content: "Body.", ...fields });
      expect(draft.status).toBe(302);
    }
  });

  it("uses alt text on the post page, in og:image:alt and twitter:image:alt, and never repeats the featured image in the gallery", async () => {
    const featured = await uploadImage("featured.png");
    const gallery = await uploadImage("gallery.png");
    const path = await createPost({
      featuredImageUrl: featured,
      featuredImageAlt: "A blue square at dawn",
      media: JSON.stringify([
        { mediaType: "image", mediaUrl: featured, alt: "A blue square at dawn" },
        { mediaType: "image", mediaUrl: gallery, alt: "A second blue square" },
      ]),
    });
    const html = await (await server.fetch(path)).text();
    expect(html).toContain('<meta property="og:image:alt" content="A blue square at dawn"/>');
    expect(html).toContain('<meta name="twitter:image:alt" content="A blue square at dawn"/>');
    expect(html).toMatch(new RegExp(`<img src="${featured}"[^>]*alt="A blue square at dawn"`));
    const start = html.indexOf('data-testid="post-media"');
    const media = html.slice(start, html.indexOf("</article>", start));
    expect(media).toContain('alt="A second blue square"');
    expect(media).not.toContain(featured);
    // The category card shows it too.
    expect(await (await server.fetch("/7fs/Fun")).text()).toMatch(/alt="A blue square at dawn"/);
  });

  it("deleting a post deletes its uploaded files by a job; a file another post uses stays", async () => {
    const own = await uploadImage("own.png");
    const inline = await uploadImage("inline.png");
    const shared = await uploadImage("shared.png");
    const path = await createPost({
      featuredImageUrl: own,
      featuredImageAlt: "Own",
      content: `![Inline](${inline})\n\n![Shared](${shared})`,
    });
    await createPost({ content: `Also here: ![Shared](${shared})` });
    for (const url of [own, inline, shared]) expect((await server.fetch(url)).status).toBe(200);

    const deleted = await server.fetch(path, {
      method: "POST",
      headers: { cookie: server.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "intent=delete",
    });
    expect(deleted.status).toBe(302);
    const runner = new JobRunner({ database: () => ctx.database, tasks: [], pollMs: 60_000, kinds: [deletePostFilesJob.kind] });
    try {
      expect(await runner.drain()).toBe(1);
    } finally {
      await runner.stop();
    }
    expect((await server.fetch(own)).status).toBe(404);
    expect((await server.fetch(inline)).status).toBe(404);
    expect((await server.fetch(shared)).status).toBe(200);
  });
});
