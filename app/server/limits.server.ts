/**
 * Every size limit on what a client sends, in one place (docs/decisions/0014-http-robustness.md).
 * The app-wide guard (server/app.ts) refuses bodies over `body` before any route; routes that take
 * less read with a smaller limit of their own from here.
 */
const KB = 1024;
const MB = 1024 * KB;

export const LIMITS = {
  /** Any body the app-wide guard lets through; /api/uploads checks `uploadRequest` instead. */
  body: 2 * MB,
  /** Plain forms: sign-in, contact, projects, users, the inbox. */
  form: 256 * KB,
  /** The post form: 100,000 characters of content percent-encoded, with room to spare. */
  postForm: 2 * MB,
  /** POST /api/auth/login: a JSON {email, password, verificationToken}. */
  loginJson: 16 * KB,
  /** POST /api/feeds/substack: a JSON {substackUrl}. */
  substackJson: 4 * KB,
  /** One uploaded image. */
  image: 10 * MB,
  /** One uploaded document (the resume PDF). */
  document: 10 * MB,
  /** Images in one upload. */
  imagesPerUpload: 10,
  /** Multipart overhead on top of the images of one upload. */
  uploadOverhead: 64 * KB,
} as const;

/** The whole upload request may hold the file limit's worth of images plus multipart overhead. */
export const UPLOAD_REQUEST_BYTES = LIMITS.imagesPerUpload * LIMITS.image + LIMITS.uploadOverhead;

/** A limit as people read it: "2 MB", "256 KB", "4 KB", "10 MB". */
export function formatBytes(bytes: number): string {
  return bytes >= MB ? `${Math.round((bytes / MB) * 10) / 10} MB` : `${Math.round(bytes / KB)} KB`;
}
