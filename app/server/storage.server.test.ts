import fs from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import S3rver from "s3rver";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../tests/helpers/temp-dir";
import { createLocalStorage, createS3Storage, type Storage } from "./storage.server";

function contract(name: string, make: () => Storage, options: { partialUploadsVisible?: boolean } = {}) {
  describe(name, () => {
    it("stores, reads back with the content type, and deletes", async () => {
      const storage = make();
      const key = `blog-images/user-1/${Date.now()}-abc123.png`;
      await storage.put(key, Buffer.from("pixels"), "image/png");
      expect(await storage.get(key)).toEqual({ body: Buffer.from("pixels"), contentType: "image/png" });
      await storage.delete(key);
      expect(await storage.get(key)).toBeNull();
      expect(await storage.get("blog-images/user-1/missing.png")).toBeNull();
    });

    it("lists, streams out and streams in objects", async () => {
      const storage = make();
      const prefix = `blog-images/list-${Date.now()}`;
      const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
      await storage.put(`${prefix}/b.png`, Buffer.from("second"), "image/png");
      await storage.putStream(
        `${prefix}/a.webp`,
        Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]),
        bytes.length,
        "image/webp",
      );
      const listed = [];
      for await (const object of storage.list()) if (object.key.startsWith(prefix)) listed.push(object);
      expect(listed.sort((x, y) => x.key.localeCompare(y.key))).toEqual([
        { key: `${prefix}/a.webp`, size: bytes.length },
        { key: `${prefix}/b.png`, size: 6 },
      ]);
      // One folder only: nothing outside it, and a missing folder is empty.
      await storage.put(`${prefix}-other/c.png`, Buffer.from("outside"), "image/png");
      const inFolder = [];
      for await (const object of storage.list(prefix)) inFolder.push(object.key);
      expect(inFolder.sort()).toEqual([`${prefix}/a.webp`, `${prefix}/b.png`]);
      const none = [];
      for await (const object of storage.list(`${prefix}/missing`)) none.push(object);
      expect(none).toEqual([]);
      await storage.delete(`${prefix}-other/c.png`);
      const opened = await storage.openRead(`${prefix}/a.webp`);
      expect(opened?.size).toBe(bytes.length);
      expect(opened?.contentType).toBe("image/webp");
      const chunks: Buffer[] = [];
      for await (const chunk of opened?.stream ?? []) chunks.push(Buffer.from(chunk));
      expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
      // A byte range is streamed from the store; the size stays the whole object's.
      const slice = await storage.openRead(`${prefix}/a.webp`, { start: 65_000, end: 65_009 });
      expect(slice?.size).toBe(bytes.length);
      const sliceChunks: Buffer[] = [];
      for await (const chunk of slice?.stream ?? []) sliceChunks.push(Buffer.from(chunk));
      expect(Buffer.concat(sliceChunks).equals(bytes.subarray(65_000, 65_010))).toBe(true);
      expect(await storage.openRead(`${prefix}/missing.png`)).toBeNull();
      expect(await storage.stat(`${prefix}/a.webp`)).toEqual({ size: bytes.length, contentType: "image/webp" });
      expect(await storage.stat(`${prefix}/missing.png`)).toBeNull();
      await expect(storage.putStream(`${prefix}/short.png`, Readable.from([Buffer.from("abc")]), 4, "image/png")).rejects.toThrow(
        /ended after 3 of 4 bytes/,
      );
      const short = await storage.get(`${prefix}/short.png`);
      if (options.partialUploadsVisible) {
        // s3rver creates the object as a request's first bytes arrive and keeps it when the upload is aborted
        // (S3 itself discards an incomplete PUT): whatever it kept is never the short stream stored as complete.
        expect(short?.contentType).not.toBe("image/png");
        if (short) await storage.delete(`${prefix}/short.png`);
      } else expect(short).toBeNull();
      await storage.delete(`${prefix}/a.webp`);
      await storage.delete(`${prefix}/b.png`);
    });

    it("refuses keys that could leave the bucket", async () => {
      const storage = make();
      for (const key of ["../etc/passwd", "blog-images/../../x.png", "/abs/x.png", "blog-images/a b.png"]) {
        await expect(storage.put(key, Buffer.from("x"), "image/png")).rejects.toThrow(/invalid storage key/);
      }
    });
  });
}

const localRoot = tempDir("storage-local-");
contract("local directory storage", () => createLocalStorage(localRoot));

describe("local directory storage after a failed write", () => {
  const storage = createLocalStorage(localRoot);
  const folder = path.join(localRoot, "blog-images", "failed-writes");
  it("leaves no temporary file beside the object", async () => {
    // A directory where the object should go: the write succeeds, the rename into place fails.
    fs.mkdirSync(path.join(folder, "taken.png", "inside"), { recursive: true });
    await expect(storage.put("blog-images/failed-writes/taken.png", Buffer.from("pixels"), "image/png")).rejects.toThrow();
    expect(fs.readdirSync(folder)).toEqual(["taken.png"]);
    await expect(
      storage.putStream("blog-images/failed-writes/taken.png", Readable.from([Buffer.from("pixels")]), 6, "image/png"),
    ).rejects.toThrow();
    await expect(
      storage.putStream("blog-images/failed-writes/short.png", Readable.from([Buffer.from("abc")]), 4, "image/png"),
    ).rejects.toThrow(/ended after 3 of 4 bytes/);
    expect(fs.readdirSync(folder)).toEqual(["taken.png"]);
  });
});

// A real S3-compatible server (s3rver) on a free port, with the bucket created up front.
let s3: S3rver;
let endpoint = "";
beforeAll(async () => {
  s3 = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: tempDir("s3rver-"),
    configureBuckets: [{ name: "site-uploads", configs: [] }],
  });
  const address: AddressInfo = await s3.run();
  endpoint = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await s3.close();
});
contract(
  "S3-compatible storage",
  () =>
    createS3Storage({
      bucket: "site-uploads",
      region: "us-east-1",
      endpoint,
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
      forcePathStyle: true,
    }),
  { partialUploadsVisible: true },
);
