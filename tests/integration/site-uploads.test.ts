import sharp from "sharp";
import { expect, it } from "vitest";
import { z } from "zod";
import { settingsFormFields } from "~/features/settings/settings-schema";
import { readSiteSettings } from "~/features/settings/settings.server";
import { LIMITS } from "~/server/limits.server";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs } from "../helpers/factories";
import { useSignedInServer } from "../helpers/test-server";

const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

/** The logo mark, favicon and resume of /admin/settings, through the production server: uploaded, made once on save, served with their types. */
describeEachDatabase("site uploads over HTTP (logo mark, favicon, resume)", (ctx) => {
  const server = useSignedInServer(ctx, "admin");
  const headers = () => ({ origin: server.url, cookie: server.cookie });

  async function uploadImage(width: number, height: number): Promise<string> {
    const png = await sharp({ create: { width, height, channels: 4, background: "#2266aa" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("files", new Blob([new Uint8Array(png)], { type: "image/png" }), "logo.png");
    const r = await server.fetch("/api/uploads", { method: "POST", headers: headers(), body: form });
    expect(r.status).toBe(201);
    const { images } = z.object({ images: z.array(z.object({ url: z.string() })) }).parse(await r.json());
    return images[0]?.url ?? "";
  }

  function uploadResume(bytes: Buffer, cookie = server.cookie, name = "cv.pdf") {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(bytes)], { type: "application/pdf" }), name);
    return server.fetch("/api/uploads/resume", { method: "POST", headers: { origin: server.url, cookie }, body: form });
  }

  const saveSettings = async (fields: Record<string, string>) =>
    server.postForm("/admin/settings", { ...settingsFormFields(await readSiteSettings(ctx.db)), ...fields });

  it("makes the icons and the logo mark once on save; pages, the manifest and /favicon.ico use them", async () => {
    const logo = await uploadImage(300, 100);
    const favicon = await uploadImage(600, 600);
    expect((await saveSettings({ logoUrl: logo, faviconUrl: favicon })).status).toBe(302);
    const { icons, logoMark } = await readSiteSettings(ctx.db);
    if (!icons || !logoMark) throw new Error("icons and logo mark were not made");
    expect(icons.source).toBe(favicon);
    expect(logoMark).toMatchObject({ source: logo, width: 192, height: 64 });

    const home = await (await server.fetch("/")).text();
    expect(home).toContain(`<link rel="icon" href="${icons.png32}" sizes="32x32" type="image/png"/>`);
    expect(home).toContain(`<link rel="apple-touch-icon" href="${icons.appleTouch}"/>`);
    expect(home).not.toContain('href="/favicon.svg"');
    expect(home).toContain(`src="${logoMark.url}"`);

    for (const [url, size] of [
      [icons.png32, 32],
      [icons.png48, 48],
      [icons.appleTouch, 180],
      [icons.png192, 192],
      [icons.png512, 512],
    ] as const) {
      const r = await server.fetch(url);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("image/png");
      const meta = await sharp(Buffer.from(await r.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).toEqual([size, size]);
    }
    const ico = await server.fetch(icons.ico);
    expect(ico.headers.get("content-type")).toBe("image/x-icon");
    const icoBytes = Buffer.from(await ico.arrayBuffer());
    expect(icoBytes.readUInt16LE(4)).toBe(3);
    const root = await server.fetch("/favicon.ico");
    expect(root.headers.get("content-type")).toBe("image/x-icon");
    expect(Buffer.from(await root.arrayBuffer()).equals(icoBytes)).toBe(true);

    const manifest = await server.fetch("/manifest.webmanifest");
    expect(manifest.headers.get("content-type")).toContain("application/manifest+json");
    expect(await manifest.json()).toMatchObject({
      icons: [
        { src: icons.png192, sizes: "192x192" },
        { src: icons.png512, sizes: "512x512" },
      ],
    });

    // Saved again with the same images: nothing is made anew.
    expect((await saveSettings({ siteName: "Same images" })).status).toBe(302);
    expect(await readSiteSettings(ctx.db)).toMatchObject({ icons, logoMark });
  });

  it("the logo's image is the favicon when none is set; clearing both brings the defaults back", async () => {
    const logo = await uploadImage(120, 120);
    expect((await saveSettings({ logoUrl: logo, faviconUrl: "" })).status).toBe(302);
    expect((await readSiteSettings(ctx.db)).icons?.source).toBe(logo);
    expect((await saveSettings({ logoUrl: "", faviconUrl: "" })).status).toBe(302);
    expect(await readSiteSettings(ctx.db)).toMatchObject({ icons: null, logoMark: null });
    const home = await (await server.fetch("/")).text();
    expect(home).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml"/>');
    expect(home).not.toContain('data-testid="logo-mark"');
  });

  it("refuses a favicon that is not an image uploaded here, with a 400 and its message", async () => {
    for (const faviconUrl of [
      "/images/portrait/placeholder.png",
      "https://elsewhere.example/icon.png",
      "/uploads/blog-images/u/missing.png",
    ]) {
      const r = await saveSettings({ faviconUrl });
      expect(r.status).toBe(400);
      expect(await r.text()).toMatch(/Favicon(:| must be an image uploaded here)/);
    }
  });

  it("takes a real PDF as the resume and serves it as a download named after the owner", async () => {
    const refused = await uploadResume(Buffer.from("<html>%PDF-1.4</html>"), server.cookie, "cv.pdf");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: "cv.pdf is not a PDF file." });
    const overLimit = await uploadResume(Buffer.concat([PDF, Buffer.alloc(LIMITS.document)]));
    expect(overLimit.status).toBe(400);
    expect(await overLimit.json()).toEqual({ error: "cv.pdf is larger than 10 MB." });
    // A body past the limit and the multipart room is refused before it is read.
    const tooLarge = await uploadResume(Buffer.concat([PDF, Buffer.alloc(LIMITS.document + LIMITS.uploadOverhead)]));
    expect(tooLarge.status).toBe(413);
    const moderator = (await signedInAs(ctx.db, "moderator")).cookie;
    expect((await uploadResume(PDF, moderator)).status).toBe(403);
    // Read as it arrives like the images (one file, the same limits), with words for what went wrong.
    const post = (body: BodyInit, headers: Record<string, string> = {}) =>
      server.fetch("/api/uploads/resume", { method: "POST", headers: { origin: server.url, cookie: server.cookie, ...headers }, body });
    const two = new FormData();
    for (const name of ["a.pdf", "b.pdf"]) two.append("file", new Blob([new Uint8Array(PDF)], { type: "application/pdf" }), name);
    const twoFiles = await post(two);
    expect([twoFiles.status, await twoFiles.json()]).toEqual([400, { error: "Upload one PDF file at a time." }]);
    const noFile = new FormData();
    noFile.append("note", "no file here");
    const empty = await post(noFile);
    expect([empty.status, await empty.json()]).toEqual([400, { error: "Choose a PDF file to upload." }]);
    const broken = await post('--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-', {
      "content-type": "multipart/form-data; boundary=x",
    });
    expect([broken.status, await broken.json()]).toEqual([400, { error: "The upload could not be read. Please try again." }]);

    const created = await uploadResume(PDF);
    expect(created.status).toBe(201);
    const { url } = z.object({ url: z.string().startsWith("/uploads/documents/") }).parse(await created.json());
    expect((await saveSettings({ resumeUrl: url, ownerName: "Jo Doe" })).status).toBe(302);

    const file = await server.fetch(url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.headers.get("content-disposition")).toBe(
      `attachment; filename="Jo Doe Resume.pdf"; filename*=UTF-8''Jo%20Doe%20Resume.pdf`,
    );
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
    expect(await (await server.fetch("/about")).text()).toContain(`href="${url}"`);
  });
});
