import { expect, it } from "vitest";
import { z } from "zod";
import { png } from "../fixtures/images";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs, unique } from "../helpers/factories";
import { useSignedInServer } from "../helpers/test-server";
import { tempDir } from "../helpers/temp-dir";

// The build reads UPLOAD_DIR when it first stores a file; set before the server starts.
process.env.UPLOAD_DIR = tempDir("media-library-http-");

const pickerAnswer = z.object({
  images: z.array(
    z.object({ id: z.string(), url: z.string(), name: z.string().nullable(), alt: z.string(), width: z.number(), height: z.number() }),
  ),
});

/** Alt text kept with an upload and the editor's "Pick from library" list, through the production server. */
describeEachDatabase("media library over HTTP (alt text, picker list)", (ctx) => {
  const server = useSignedInServer(ctx, "moderator");

  async function upload(name: string, alt?: string) {
    const form = new FormData();
    form.append("files", new Blob([new Uint8Array(await png())], { type: "image/png" }), name);
    if (alt !== undefined) form.append("alt", alt);
    const r = await server.fetch("/api/uploads", { method: "POST", headers: { origin: server.url, cookie: server.cookie }, body: form });
    return r;
  }

  const picker = async (q: string, cookie = server.cookie) =>
    server.fetch(`/api/media?${new URLSearchParams({ q })}`, { headers: { cookie } });

  it("keeps the alt text sent with an upload, lists it in the picker, and the library edits it for the next insertion", async () => {
    const tag = `pick${unique()}`;
    const uploaded = await upload(`${tag}.png`, "A lighthouse in fog");
    expect(uploaded.status).toBe(201);
    expect(await uploaded.json()).toMatchObject({ images: [{ alt: "A lighthouse in fog" }] });

    const listed = await picker(tag);
    expect(listed.status).toBe(200);
    expect(listed.headers.get("cache-control")).toBe("private, no-store");
    const { images } = pickerAnswer.parse(await listed.json());
    expect(images).toEqual([expect.objectContaining({ name: `${tag}.png`, alt: "A lighthouse in fog", width: 64, height: 48 })]);
    const id = images[0]?.id ?? "";

    // The alt text is searched too.
    expect(pickerAnswer.parse(await (await picker("lighthouse in fog")).json()).images.map((i) => i.id)).toContain(id);

    const edited = await server.postForm("/admin/media", { intent: "alt", id, alt: "  A lighthouse in morning fog " });
    expect(edited.status).toBe(200);
    expect(pickerAnswer.parse(await (await picker(tag)).json()).images[0]?.alt).toBe("A lighthouse in morning fog");

    // Someone else's upload: the uploader or an admin only.
    const other = await signedInAs(ctx.db, "moderator");
    const refused = await server.fetch("/admin/media", {
      method: "POST",
      headers: { cookie: other.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "alt", id, alt: "Not mine" }).toString(),
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("Only an admin or the person who uploaded it may change an upload&#x27;s alt text.");
    expect(pickerAnswer.parse(await (await picker(tag)).json()).images[0]?.alt).toBe("A lighthouse in morning fog");
  });

  it("answers bad input with a 4xx and a message: an alt text too long, a search too long, a reader asking for the list", async () => {
    const long = await upload(`long${unique()}.png`, "x".repeat(301));
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ error: "Alt text must be less than 300 characters" });

    const search = await picker("q".repeat(201));
    expect(search.status).toBe(400);
    expect(await search.json()).toMatchObject({ error: "Search for at most 200 characters." });

    const reader = await signedInAs(ctx.db, "user");
    const denied = await picker("", reader.cookie);
    expect(denied.status).toBe(403);
    const anonymous = await server.fetch("/api/media");
    expect(anonymous.status).toBe(401);
  });
});
