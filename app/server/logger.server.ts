import pino from "pino";

const level = process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info");
const pretty = process.env.NODE_ENV === "development" && process.stdout.isTTY;

/** Structured JSON logs (pretty in development). */
export const logger = pino({
  level,
  base: undefined,
  redact: { paths: ["password", "*.password", "token", "*.token", "req.headers.cookie"], remove: true },
  ...(pretty ? { transport: { target: "pino-pretty" } } : {}),
});
