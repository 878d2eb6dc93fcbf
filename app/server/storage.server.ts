import fs from "node:fs/promises";
import path from "node:path";
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getEnv } from "./env.server";

/** Where uploaded files live: a local directory by default, an S3-compatible bucket when S3_BUCKET is set. */
export interface Storage {
  readonly kind: "local" | "s3";
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<{ body: Buffer; contentType: string } | null>;
  delete(key: string): Promise<void>;
}

/** Keys are ours (bucket/user/time-random.ext) but are checked anyway so no key can leave the root. */
export const STORAGE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*\/[A-Za-z0-9_-]+\.[a-z0-9]{2,5}$/;

function assertKey(key: string): void {
  if (!STORAGE_KEY.test(key)) throw new Error(`invalid storage key: ${key}`);
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
      await fs.mkdir(path.dirname(full), { recursive: true });
      const tmp = `${full}.${process.pid}.tmp`;
      await fs.writeFile(tmp, body);
      await fs.rename(tmp, full);
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
  };
}

export interface S3Options {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

export function createS3Storage(options: S3Options): Storage {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } : undefined,
  });
  return {
    kind: "s3",
    async put(key, body, contentType) {
      assertKey(key);
      await client.send(
        new PutObjectCommand({ Bucket: options.bucket, Key: key, Body: body, ContentType: contentType, CacheControl: "public, max-age=31536000, immutable" }),
      );
    },
    async get(key) {
      assertKey(key);
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: options.bucket, Key: key }));
        if (!out.Body) return null;
        return { body: Buffer.from(await out.Body.transformToByteArray()), contentType: out.ContentType ?? "application/octet-stream" };
      } catch (error) {
        if (error instanceof NoSuchKey) return null;
        if (error instanceof Error && error.name === "NoSuchKey") return null;
        throw error;
      }
    },
    async delete(key) {
      assertKey(key);
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: key }));
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
