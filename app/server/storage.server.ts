import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { S3Client } from "@aws-sdk/client-s3";
import { getEnv } from "./env.server";
import { ServiceUnavailableError } from "./errors.server";

/** Where uploaded files live: a local directory by default, an S3-compatible bucket when S3_BUCKET is set. */
export interface Storage {
  readonly kind: "local" | "s3";
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<{ body: Buffer; contentType: string } | null>;
  delete(key: string): Promise<void>;
  /**
   * Every stored object (backups), or those under one folder (`share-images`), page by page so a
   * large store is never listed in memory at once.
   */
  list(prefix?: string): AsyncIterable<StoredObject>;
  /**
   * Streams one object, or the bytes start..end (inclusive) of it; `size` is always the whole
   * object's. Null when it is gone.
   */
  openRead(key: string, range?: ByteRange): Promise<{ stream: Readable; size: number; contentType: string } | null>;
  /** One object's size and type without reading it (a Range request needs the size first); null when it is gone. */
  stat(key: string): Promise<{ size: number; contentType: string } | null>;
  /** Stores a stream of a known length (restores); fails when the stream is not exactly `size` bytes. */
  putStream(key: string, body: Readable, size: number, contentType: string): Promise<void>;
  /** Throws unless the store can be reached and written to (readiness). */
  ping(): Promise<void>;
}

export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObject {
  key: string;
  size: number;
}

/** A folder of keys, without the trailing slash: `share-images`, `blog-images/user-1`. */
const STORAGE_PREFIX = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

function assertPrefix(prefix: string): void {
  if (!STORAGE_PREFIX.test(prefix)) throw new Error(`invalid storage prefix: ${prefix}`);
}

/** Keys are ours (bucket/user/time-random.ext) but are checked anyway so no key can leave the root. */
export const STORAGE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*\/[A-Za-z0-9_-]+\.[a-z0-9]{2,5}$/;

/**
 * The types the site stores (images, the resume, icons): a browser shows or downloads them, never runs
 * them. Any other type (text/html, image/svg+xml, a script) is stored as application/octet-stream, so a
 * file that reaches storage from outside (a restored archive) cannot become a page on the site's origin
 * or the bucket's, whichever serves it.
 */
const INERT_CONTENT_TYPES = new Set([
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/gif",
  "image/avif",
  "image/x-icon",
  "application/pdf",
  "application/octet-stream",
]);

export function inertContentType(contentType: string): string {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  return INERT_CONTENT_TYPES.has(type) ? type : "application/octet-stream";
}

function assertKey(key: string): void {
  if (!STORAGE_KEY.test(key)) throw new Error(`invalid storage key: ${key}`);
}

/**
 * Writes a file under a temporary name beside `full` and renames it into place, so readers never see
 * half a file; when the write or the rename fails, the temporary file is removed before the error goes on.
 */
async function writeThenRename(full: string, write: (tmp: string) => Promise<void>): Promise<void> {
  await fs.mkdir(path.dirname(full), { recursive: true });
  const tmp = `${full}.${process.pid}.tmp`;
  try {
    await write(tmp);
    await fs.rename(tmp, full);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
}

export function createLocalStorage(root: string): Storage {
  const resolved = path.resolve(root);
  const file = (key: string) => {
    assertKey(key);
    const full = path.resolve(resolved, key);
    if (!full.startsWith(resolved + path.sep)) throw new Error("storage key escapes the root");
    return full;
  };
  return {
    kind: "local",
    async put(key, body, contentType) {
      const full = file(key);
      await writeThenRename(full, (tmp) => fs.writeFile(tmp, body));
      await fs.writeFile(`${full}.type`, contentType);
    },
    async get(key) {
      const full = file(key);
      try {
        const [body, contentType] = await Promise.all([fs.readFile(full), fs.readFile(`${full}.type`, "utf8")]);
        return { body, contentType };
      } catch (error) {
        if (error instanceof Error && "code" in error && error.code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      const full = file(key);
      await fs.rm(full, { force: true });
      await fs.rm(`${full}.type`, { force: true });
    },
    async *list(prefix) {
      if (prefix !== undefined) assertPrefix(prefix);
      yield* walkLocal(resolved, prefix === undefined ? resolved : path.join(resolved, prefix));
    },
    async openRead(key, range) {
      const full = file(key);
      try {
        const [handle, contentType] = await Promise.all([fs.open(full), fs.readFile(`${full}.type`, "utf8")]);
        const { size } = await handle.stat();
        return { stream: handle.createReadStream(range ? { start: range.start, end: range.end } : {}), size, contentType };
      } catch (error) {
        if (error instanceof Error && "code" in error && error.code === "ENOENT") return null;
        throw error;
      }
    },
    async stat(key) {
      const full = file(key);
      try {
        const [{ size }, contentType] = await Promise.all([fs.stat(full), fs.readFile(`${full}.type`, "utf8")]);
        return { size, contentType };
      } catch (error) {
        if (error instanceof Error && "code" in error && error.code === "ENOENT") return null;
        throw error;
      }
    },
    async putStream(key, body, size, contentType) {
      const full = file(key);
      await writeThenRename(full, (tmp) => pipeline(body, exactLength(size), createWriteStream(tmp)));
      await fs.writeFile(`${full}.type`, contentType);
    },
    async ping() {
      await fs.mkdir(resolved, { recursive: true });
      await fs.access(resolved, fs.constants.W_OK);
    },
  };
}

/** Stored objects under a local root, in key order; sidecar `.type` files and temporary files are not objects. */
async function* walkLocal(root: string, dir: string): AsyncGenerator<StoredObject> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return;
    throw error;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      yield* walkLocal(root, full);
      continue;
    }
    if (!entry.isFile()) continue;
    const key = path.relative(root, full).split(path.sep).join("/");
    if (!STORAGE_KEY.test(key)) continue;
    const { size } = await fs.stat(full);
    yield { key, size };
  }
}

/** Passes bytes through and fails unless exactly `size` of them went by. */
function exactLength(size: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > size) callback(new Error(`stream is longer than the expected ${size} bytes`));
      else callback(null, chunk);
    },
    flush(callback) {
      callback(seen === size ? null : new Error(`stream ended after ${seen} of ${size} bytes`));
    },
  });
}

export interface S3Options {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

export const STORAGE_UNAVAILABLE = "The file storage cannot be reached right now, so nothing was saved. Please try again in a minute.";

/** Socket errors and S3's own "try later" answers: the bucket is away or overloaded, not refusing this request. */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "EAI_AGAIN",
  "TimeoutError",
]);
function isUnreachable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 5; e = "cause" in e ? e.cause : undefined, depth++) {
    const code = "code" in e && typeof e.code === "string" ? e.code : "name" in e && typeof e.name === "string" ? e.name : "";
    if (UNREACHABLE_CODES.has(code)) return true;
    const status =
      "$metadata" in e && e.$metadata && typeof e.$metadata === "object"
        ? (e.$metadata as { httpStatusCode?: number }).httpStatusCode
        : undefined;
    if (status !== undefined && status >= 500) return true;
  }
  return false;
}

/** The bucket being away becomes a typed 503 (Retry-After, a sentence a person can act on); other errors pass as they are. */
function reachable<T>(work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    throw isUnreachable(error) ? new ServiceUnavailableError(STORAGE_UNAVAILABLE) : error;
  });
}

function withUnreachableAsUnavailable(storage: Storage): Storage {
  return {
    kind: storage.kind,
    put: (...args) => reachable(storage.put(...args)),
    get: (...args) => reachable(storage.get(...args)),
    delete: (...args) => reachable(storage.delete(...args)),
    async *list(prefix) {
      try {
        yield* storage.list(prefix);
      } catch (error) {
        throw isUnreachable(error) ? new ServiceUnavailableError(STORAGE_UNAVAILABLE) : error;
      }
    },
    openRead: (...args) => reachable(storage.openRead(...args)),
    stat: (...args) => reachable(storage.stat(...args)),
    putStream: (...args) => reachable(storage.putStream(...args)),
    ping: () => reachable(storage.ping()),
  };
}

export function createS3Storage(options: S3Options): Storage {
  return withUnreachableAsUnavailable(createRawS3Storage(options));
}

function createRawS3Storage(options: S3Options): Storage {
  // The AWS SDK (~17 MB resident) is loaded with the first S3 call, not by every site on local storage.
  let loaded: Promise<{ sdk: typeof import("@aws-sdk/client-s3"); client: S3Client }> | undefined;
  const s3 = () =>
    (loaded ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: options.region,
        endpoint: options.endpoint,
        forcePathStyle: options.forcePathStyle,
        // Streamed bodies would otherwise be sent aws-chunked with a trailing checksum, which several
        // S3-compatible servers store verbatim instead of decoding.
        requestChecksumCalculation: "WHEN_REQUIRED",
        credentials:
          options.accessKeyId && options.secretAccessKey
            ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
            : undefined,
      }),
    })));
  return {
    kind: "s3",
    async put(key, body, contentType) {
      assertKey(key);
      const { sdk, client } = await s3();
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: options.bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          CacheControl: "public, max-age=31536000, immutable",
        }),
      );
    },
    async get(key) {
      assertKey(key);
      const { sdk, client } = await s3();
      try {
        const out = await client.send(new sdk.GetObjectCommand({ Bucket: options.bucket, Key: key }));
        if (!out.Body) return null;
        return { body: Buffer.from(await out.Body.transformToByteArray()), contentType: out.ContentType ?? "application/octet-stream" };
      } catch (error) {
        if (error instanceof Error && error.name === "NoSuchKey") return null;
        throw error;
      }
    },
    async delete(key) {
      assertKey(key);
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: options.bucket, Key: key }));
    },
    async *list(prefix) {
      const { sdk, client } = await s3();
      if (prefix !== undefined) assertPrefix(prefix);
      let token: string | undefined;
      do {
        const page = await client.send(
          new sdk.ListObjectsV2Command({
            Bucket: options.bucket,
            Prefix: prefix === undefined ? undefined : `${prefix}/`,
            ContinuationToken: token,
          }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key && STORAGE_KEY.test(object.Key)) yield { key: object.Key, size: object.Size ?? 0 };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async openRead(key, range) {
      assertKey(key);
      const { sdk, client } = await s3();
      try {
        const out = await client.send(
          new sdk.GetObjectCommand({ Bucket: options.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        );
        if (!(out.Body instanceof Readable)) return null;
        // With a range, ContentRange ("bytes 0-9/1234") carries the whole object's size.
        const size = range ? Number(out.ContentRange?.split("/")[1] ?? NaN) : (out.ContentLength ?? 0);
        return { stream: out.Body, size, contentType: out.ContentType ?? "application/octet-stream" };
      } catch (error) {
        if (error instanceof Error && error.name === "NoSuchKey") return null;
        throw error;
      }
    },
    async stat(key) {
      assertKey(key);
      const { sdk, client } = await s3();
      try {
        const out = await client.send(new sdk.HeadObjectCommand({ Bucket: options.bucket, Key: key }));
        return { size: out.ContentLength ?? 0, contentType: out.ContentType ?? "application/octet-stream" };
      } catch (error) {
        // A HEAD has no body, so a missing object is a bare 404 ("NotFound"), not NoSuchKey.
        if (error instanceof Error && (error.name === "NotFound" || error.name === "NoSuchKey")) return null;
        throw error;
      }
    },
    async putStream(key, body, size, contentType) {
      assertKey(key);
      const { sdk, client } = await s3();
      // A wrong length must abort the request, or it would wait forever for the missing bytes.
      const checked = exactLength(size);
      const abort = new AbortController();
      // Both settle before this returns, so no request is still in flight when the caller cleans up after a failure.
      const [read, sent] = await Promise.allSettled([
        pipeline(body, checked).catch((error: unknown) => {
          abort.abort();
          throw error;
        }),
        client.send(
          new sdk.PutObjectCommand({
            Bucket: options.bucket,
            Key: key,
            Body: checked,
            ContentLength: size,
            ContentType: contentType,
            CacheControl: "public, max-age=31536000, immutable",
          }),
          { abortSignal: abort.signal },
        ),
      ]);
      if (read.status === "rejected") throw read.reason;
      if (sent.status === "rejected") throw sent.reason;
    },
    async ping() {
      const { sdk, client } = await s3();
      await client.send(new sdk.HeadBucketCommand({ Bucket: options.bucket }));
    },
  };
}

let cached: Storage | undefined;

export function getStorage(): Storage {
  if (cached) return cached;
  const env = getEnv();
  cached = env.S3_BUCKET
    ? createS3Storage({
        bucket: env.S3_BUCKET,
        region: env.S3_REGION,
        endpoint: env.S3_ENDPOINT,
        accessKeyId: env.S3_ACCESS_KEY_ID,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY,
        forcePathStyle: env.S3_FORCE_PATH_STYLE,
      })
    : createLocalStorage(env.UPLOAD_DIR ?? path.join(env.dataDir, "uploads"));
  return cached;
}
