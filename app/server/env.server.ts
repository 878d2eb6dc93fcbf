import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { emailSchema } from "~/lib/email";
import { isValidTimeZone } from "~/lib/time-zone";

const bool = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : ["true", "1", "yes"].includes(v)));

const optionalUrl = z.preprocess((v) => (v === "" ? undefined : v), z.url().optional());
const optionalString = z.preprocess((v) => (v === "" ? undefined : v), z.string().optional());
const optionalEmail = z.preprocess((v) => (v === "" ? undefined : v), emailSchema.optional());

function isAddressOrCidr(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/**
 * Who may tell us the client's address (X-Forwarded-For, read from the right): false (nobody, the
 * socket address counts), the number of proxies in front, or the proxies' addresses/CIDRs.
 * "true" keeps its old meaning, one proxy, with a start-up warning.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((v) => (v ?? "").trim().toLowerCase())
  .pipe(
    z.union(
      [
        z.enum(["", "false", "no", "0"]).transform((): false => false),
        z.enum(["true", "yes"]).transform(() => 1),
        z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1).max(10)),
        z
          .string()
          .transform((v) =>
            v
              .split(",")
              .map((entry) => entry.trim())
              .filter(Boolean),
          )
          .pipe(z.array(z.string().refine(isAddressOrCidr)).min(1)),
      ],
      { error: "must be false, the number of proxies in front (1-10) or a comma-separated list of proxy addresses/CIDRs" },
    ),
  );

/** Every variable the app reads, with its default. `.env.example` lists the same set. */
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
  ),
  /**
   * PostgreSQL: how long a request waits for a database connection before it is answered 503 (with
   * Retry-After) — while the database is away no request hangs longer than this.
   */
  DATABASE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
  PUBLIC_URL: optionalUrl,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  INITIAL_ADMIN_EMAIL: optionalEmail,
  INITIAL_ADMIN_PASSWORD: optionalString,
  SEED_DEMO_CONTENT: bool(true),
  /** Signs session cookies. Generated and stored in the database when unset. */
  AUTH_SECRET: z.preprocess((v) => (v === "" ? undefined : v), z.string().min(32, "must be at least 32 characters").optional()),
  TRUST_PROXY: trustProxy,
  /** Sign-in attempts allowed per IP address in 15 minutes (raise it for end-to-end test runs). */
  LOGIN_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(10),
  /** How long audit log entries are kept (app/server/audit.server.ts). */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
  /** Sign-in attempts on one account in an hour, from all addresses, before each one is slowed down. */
  LOGIN_ACCOUNT_SLOWDOWN_AFTER: z.coerce.number().int().min(1).default(20),
  // Mail
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default("Portfolio <no-reply@localhost>"),
  CONTACT_TO: optionalEmail,
  // Contact form and its delivery outbox (app/features/contact)
  /** Address shown on /contact; defaults to CONTACT_TO. */
  CONTACT_PUBLIC_EMAIL: optionalEmail,
  CONTACT_RATE_LIMIT_PER_10_MIN: z.coerce.number().int().min(1).default(5),
  CONTACT_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(8),
  CONTACT_RETRY_BASE_SECONDS: z.coerce.number().min(0.1).max(3600).default(5),
  CONTACT_LOCK_SECONDS: z.coerce.number().int().min(2).max(3600).default(120),
  CONTACT_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(2000),
  // Booking calls (app/features/booking): bookings accepted per visitor address an hour and per email a day
  BOOKING_RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(5),
  BOOKING_RATE_LIMIT_PER_EMAIL_PER_DAY: z.coerce.number().int().min(1).default(3),
  // Background jobs (app/server/jobs) and the content version (app/server/content-version.server.ts)
  JOBS_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(1000),
  CONTENT_VERSION_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  // Blog editor: the zone 'Publish at' is typed in (IANA name; stored in UTC) and revisions kept per post
  SITE_TIME_ZONE: z
    .string()
    .default("UTC")
    .refine((v) => isValidTimeZone(v), "must be an IANA time zone such as Europe/Berlin"),
  POST_REVISIONS_KEEP: z.coerce.number().int().min(1).max(10_000).default(50),
  /**
   * Posts per sitemap file, on average at most (the protocol allows 50,000): few enough that a file is
   * built in a few milliseconds at 100,000 posts (WordPress writes 2,000 per file, Yoast 1,000).
   * Files vary a little around the average (app/features/pages/sitemap.ts), hence half the limit.
   */
  SITEMAP_POSTS_PER_FILE: z.coerce.number().int().min(1).max(25_000).default(1000),
  // Human verification (ALTCHA by default; Turnstile when both keys are set)
  /**
   * The ALTCHA proof of work's upper bound: a browser tries about half of it in SHA-256 hashes (100,000:
   * well under a second on a phone, costly at scale for bots). Raise it to slow bots further.
   */
  ALTCHA_MAX_NUMBER: z.coerce.number().int().min(1000).max(10_000_000).default(100_000),
  TURNSTILE_SITE_KEY: optionalString,
  TURNSTILE_SECRET_KEY: optionalString,
  TURNSTILE_VERIFY_URL: z.url().default("https://challenges.cloudflare.com/turnstile/v0/siteverify"),
  // External feeds on the home page
  SUBSTACK_URL: optionalUrl,
  TSP_BLOG_URL: optionalUrl,
  TSP_KB_URL: optionalUrl,
  FEED_TIMEOUT_MS: z.coerce.number().int().min(100).max(30000).default(3000),
  FEED_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).default(900),
  // Storage (local directory by default; S3-compatible when S3_BUCKET is set)
  UPLOAD_DIR: optionalString,
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().default("us-east-1"),
  S3_BUCKET: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: bool(true),
  /** With S3: where browsers fetch uploads (a CDN or the bucket's public URL); unset, the app streams them. */
  S3_PUBLIC_URL: optionalUrl,
  // Visitor statistics (app/features/analytics): off stops counting; reports keep what was counted
  ANALYTICS: bool(true),
  /** Days raw page views are kept before only their daily rollups remain. */
  ANALYTICS_RAW_DAYS: z.coerce.number().int().min(2).max(3650).default(30),
  /** Counted views per minute per instance; past it views are sampled (the report says so). */
  ANALYTICS_MAX_VIEWS_PER_MINUTE: z.coerce.number().int().min(100).max(10_000_000).default(60_000),
  // Operations
  /** Scheduled backups: a directory or s3://bucket/prefix; unset, the server writes none. */
  BACKUP_DIR: optionalString,
  BACKUP_INTERVAL_HOURS: z.coerce
    .number()
    .min(0.01)
    .max(24 * 365)
    .default(24),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(7),
  /** GET /metrics answers only with `Authorization: Bearer <METRICS_TOKEN>`; unset, it is off (404). */
  /** Lets feeds, calendar feeds and importers fetch loopback and private addresses (a developer's local server). */
  OUTBOUND_ALLOW_PRIVATE: bool(false),
  METRICS_TOKEN: z.preprocess((v) => (v === "" ? undefined : v), z.string().min(16, "must be at least 16 characters").optional()),
});

export type Env = z.infer<typeof envSchema> & {
  dataDir: string;
  publicUrl: string;
  /** Problems worth a line in the log at start-up that do not stop it. */
  warnings: string[];
};

export class EnvError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Parses configuration; throws EnvError naming each malformed variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`));
  }
  const parsed = result.data;
  if (Boolean(parsed.TURNSTILE_SITE_KEY) !== Boolean(parsed.TURNSTILE_SECRET_KEY)) {
    throw new EnvError(["TURNSTILE_SITE_KEY and TURNSTILE_SECRET_KEY must be set together"]);
  }
  const warnings: string[] = [];
  if (/^(true|yes)$/i.test(source.TRUST_PROXY?.trim() ?? ""))
    warnings.push("TRUST_PROXY=true is read as one proxy in front: set it to the number of proxies, or their addresses");
  return {
    ...parsed,
    warnings,
    dataDir: path.resolve(parsed.DATA_DIR),
    publicUrl: (parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, ""),
  };
}

// On globalThis, like the database handle: a test that loads the production build in-process and
// changes process.env resets the build's copy of this module too.
const envHolder = globalThis as typeof globalThis & { __appEnv?: Env };

export function getEnv(): Env {
  envHolder.__appEnv ??= parseEnv(process.env);
  return envHolder.__appEnv;
}

/** For tests that change process.env between cases. */
export function resetEnvForTests() {
  envHolder.__appEnv = undefined;
}
