import pino from "pino";

const level = process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info");
const pretty = process.env.NODE_ENV === "development" && process.stdout.isTTY;

/**
 * Never logged, wherever they appear in a log object (one level deep): passwords, tokens, secrets,
 * cookies and authorization headers. Access log lines carry no headers or query strings at all.
 */
const SECRET_KEYS = [
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "verificationToken",
  "turnstileToken",
  "secret",
  "cookie",
  "authorization",
  "set-cookie",
  "totp",
  "code",
];
const REDACT_PATHS = [
  ...SECRET_KEYS.flatMap((key) => [`["${key}"]`, `*["${key}"]`]),
  ...["cookie", "authorization", "set-cookie", "x-api-key"].flatMap((header) => [`req.headers["${header}"]`, `res.headers["${header}"]`]),
];

export const loggerOptions = { base: undefined, redact: { paths: REDACT_PATHS, censor: "[redacted]" } } satisfies pino.LoggerOptions;

/** Structured JSON logs (pretty in development). */
export const logger = pino({
  level,
  ...loggerOptions,
  ...(pretty ? { transport: { target: "pino-pretty" } } : {}),
});
